/**
 * The relay's copy of the byte path's rules is generated: native/byte-path-rules.h must be what
 * src/pty/byte-path-rules.ts renders to, or the two byte paths would follow different rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as rules from '../../src/pty/byte-path-rules.js';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { relayRulesHeader } from '../../scripts/relay-rules-header.mjs';
import { repoRoot } from '../support/claude-env.js';

describe('the byte path rules', () => {
  it('are what the relay is compiled with (else run `npm run gen:relay-rules`)', () => {
    const committed = fs.readFileSync(path.join(repoRoot, 'native', 'byte-path-rules.h'), 'utf8');
    expect(committed).toBe(relayRulesHeader(rules));
  });

  it('reach the relay whole: every rule of the module appears in the header', () => {
    const header = relayRulesHeader(rules);
    for (const name of Object.keys(rules)) {
      if (name === 'TIMING') continue;
      expect(header, name).toMatch(new RegExp(`RULE_${name}\\b`));
    }
    for (const key of ['INJECT_IDLE_MS', 'DRAIN_QUIET_MS', 'DRAIN_MAX_MS']) expect(header).toContain(`RULE_${key}`);
  });
});
