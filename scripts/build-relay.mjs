#!/usr/bin/env node
/**
 * Builds the native relay (native/relay.c -> dist/relay/ccc-relay) with the system C compiler.
 * Runs after `npm install` and in `npm run build`; skipped when the binary is newer than the
 * source. Without a compiler (or on Windows) ccc still works: supervised sessions then use the
 * Node proxy, which is slower (see bench/RESULTS.md). CCC_REQUIRE_RELAY=1 makes a failure fatal.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const source = path.join(root, 'native', 'relay.c');
const target = path.join(root, 'dist', 'relay', 'ccc-relay');

function skip(why) {
  const message = `ccc: the native relay was not built (${why}); supervised sessions will use the slower Node proxy`;
  if (process.env.CCC_REQUIRE_RELAY === '1') {
    console.error(message);
    process.exit(1);
  }
  console.warn(message);
  process.exit(0);
}

if (process.platform === 'win32') skip('Windows has no pty for it');
if (!fs.existsSync(source)) skip(`${source} is missing`);
try {
  if (fs.statSync(target).mtimeMs >= fs.statSync(source).mtimeMs) process.exit(0);
} catch {
  // not built yet
}
fs.mkdirSync(path.dirname(target), { recursive: true });
const compiler = process.env.CC || 'cc';
const temporary = `${target}.${process.pid}`;
const result = spawnSync(compiler, ['-O2', '-std=c11', '-Wall', '-Wextra', '-o', temporary, source], { stdio: 'inherit' });
if (result.error || result.status !== 0) {
  fs.rmSync(temporary, { force: true });
  skip(result.error ? `${compiler}: ${result.error.message}` : `${compiler} exited with ${result.status}`);
}
fs.renameSync(temporary, target);
