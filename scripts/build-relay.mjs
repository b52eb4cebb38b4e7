#!/usr/bin/env node
/**
 * Builds the native helpers with the system C compiler, in `npm run build` (and so in `prepare`,
 * which packs the package): the relay (native/relay.c -> dist/relay/ccc-relay) and the lifeline
 * (native/lifeline.c -> dist/relay/ccc-lifeline), used by this checkout; and a copy of each in
 * dist/prebuilt/<platform>-<arch>/, which the package ships: an installed ccc checks that they run
 * on its machine and keeps them under its config directory, or compiles its own there on first
 * use (src/native/native-helpers.ts). No install script is involved. Each binary is rebuilt only
 * when a source is newer or it no longer matches the hash recorded in SHA256SUMS beside it (which
 * ccc checks before running it). Without a compiler the build goes on without them (the package then
 * has no prebuilt helpers); CCC_REQUIRE_RELAY=1 makes that an error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileHelper, compilerCommand, HELPERS, helperSources } from '../dist/native/helper-build.js';
import { platformName, sourcesHash, sourcesHashFile } from '../dist/native/helper-key.js';
import { readRecord, recordHelpers, recordMismatch } from '../dist/native/helper-record.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function skip(why) {
  const message = `ccc: the native helpers were not built (${why}); ccc builds them on first use where a C compiler is, and runs without them elsewhere (the slower Node proxy; children outlive a killed ccc)`;
  if (process.env.CCC_REQUIRE_RELAY === '1') {
    console.error(message);
    process.exit(1);
  }
  console.warn(message);
  process.exit(0);
}

if (process.platform === 'win32') skip('Windows has no pty for it');
const prebuilt = path.join(root, 'dist', 'prebuilt', platformName());
fs.mkdirSync(path.join(root, 'dist', 'relay'), { recursive: true });
fs.mkdirSync(prebuilt, { recursive: true });
// Where an installed ccc keeps the helpers it sets up is named by this hash: computed here, once.
fs.writeFileSync(sourcesHashFile(root), `${sourcesHash(root)}\n`);
for (const name of HELPERS) {
  const target = path.join(root, 'dist', 'relay', name);
  build(name, helperSources(path.join(root, 'native'), name), target);
  fs.copyFileSync(target, path.join(prebuilt, name));
}
recordHelpers(path.join(root, 'dist', 'relay'), HELPERS);
recordHelpers(prebuilt, HELPERS);

/** Compiles `sources[0]` (the others are what it includes) unless the binary is newer than all of them. */
function build(name, sources, target) {
  for (const file of sources) if (!fs.existsSync(file)) skip(`${file} is missing`);
  try {
    const built = fs.statSync(target).mtimeMs;
    const intact = !recordMismatch(target, readRecord(path.dirname(target)));
    if (intact && sources.every((file) => built >= fs.statSync(file).mtimeMs)) return;
  } catch {
    // not built yet
  }
  const result = compileHelper({ name, source: sources[0], target, compiler: compilerCommand(process.env) });
  if (!result.ok) skip(result.reason);
  process.stderr.write(result.warnings);
}
