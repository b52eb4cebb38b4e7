#!/usr/bin/env node
/** Writes native/byte-path-rules.h from the built rules (dist/pty/byte-path-rules.js). */
import fs from 'node:fs';
import * as rules from '../dist/pty/byte-path-rules.js';
import { relayRulesHeader } from './relay-rules-header.mjs';

fs.writeFileSync(new URL('../native/byte-path-rules.h', import.meta.url), relayRulesHeader(rules));
