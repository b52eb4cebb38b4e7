#!/usr/bin/env node
/**
 * Builds the native helpers with the system C compiler: the relay (native/relay.c ->
 * dist/relay/ccc-relay) and the lifeline (native/lifeline.c -> dist/relay/ccc-lifeline, which
 * ends ccc's children when ccc dies). Runs after `npm install` and in `npm run build`; each is
 * skipped when its binary is newer than its source. Without a compiler (or on Windows) ccc still
 * works: supervised sessions then use the Node proxy, which is slower (see bench/RESULTS.md), and
 * children are cleaned up only when ccc exits normally. CCC_REQUIRE_RELAY=1 makes a failure fatal.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function skip(why) {
  const message = `ccc: the native helpers were not built (${why}); supervised sessions will use the slower Node proxy, and children outlive a killed ccc`;
  if (process.env.CCC_REQUIRE_RELAY === '1') {
    console.error(message);
    process.exit(1);
  }
  console.warn(message);
  process.exit(0);
}

if (process.platform === 'win32') skip('Windows has no pty for it');
const native = (name) => path.join(root, 'native', name);
build([native('relay.c'), native('byte-path-rules.h')], path.join(root, 'dist', 'relay', 'ccc-relay'));
build([native('lifeline.c')], path.join(root, 'dist', 'relay', 'ccc-lifeline'));

/** Compiles `sources[0]` (the others are what it includes) unless the binary is newer than all of them. */
function build(sources, target) {
  const source = sources[0];
  for (const file of sources) if (!fs.existsSync(file)) skip(`${file} is missing`);
  try {
    const built = fs.statSync(target).mtimeMs;
    if (sources.every((file) => built >= fs.statSync(file).mtimeMs)) return;
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
}
