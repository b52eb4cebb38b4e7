#!/usr/bin/env node
/**
 * What finding the native helpers costs on the start path of a session, each case in a fresh
 * process (the stop channel's random token already drawn, as before the agent's spawn):
 * a checkout (dist/relay), an installed package whose helpers an earlier ccc set up, and the first
 * use of an installed package: the prebuilt probed and copied, or both helpers compiled.
 * Not part of `npm run bench`: `node bench/native-lookup.mjs` after `npm run build`
 * (`BENCH_LOOKUP_RUNS`, 7).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const runs = Number(process.env.BENCH_LOOKUP_RUNS ?? 7);
const platform = `${process.platform}-${process.arch}`;

/** An installed package's files: package.json, native/, dist/prebuilt (when `prebuilt`). */
function installedPackage(dir, prebuilt) {
  fs.mkdirSync(path.join(dir, 'native'), { recursive: true });
  fs.copyFileSync(path.join(repo, 'package.json'), path.join(dir, 'package.json'));
  for (const file of fs.readdirSync(path.join(repo, 'native'))) fs.copyFileSync(path.join(repo, 'native', file), path.join(dir, 'native', file));
  if (prebuilt) fs.cpSync(path.join(repo, 'dist', 'prebuilt'), path.join(dir, 'dist', 'prebuilt'), { recursive: true });
  else {
    fs.mkdirSync(path.join(dir, 'dist', 'prebuilt'), { recursive: true });
    fs.copyFileSync(path.join(repo, 'dist', 'prebuilt', 'sources.sha256'), path.join(dir, 'dist', 'prebuilt', 'sources.sha256'));
  }
}

function lookup(root, configDir) {
  const script = `import crypto from 'node:crypto'; crypto.randomBytes(32);
    const t0 = performance.now();
    const { locateHelpers } = await import(${JSON.stringify(path.join(repo, 'dist', 'native', 'native-helpers.js'))});
    const t1 = performance.now();
    const states = locateHelpers({ env: process.env, cwd: process.cwd(), configDir: ${JSON.stringify(configDir)}${root ? `, root: ${JSON.stringify(root)}` : ''} });
    console.log(JSON.stringify({ importMs: t1 - t0, lookupMs: performance.now() - t1, origins: states.map((s) => s.origin) }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const cases = {
  'checkout (dist/relay)': () => ({ root: undefined, fresh: false }),
  'installed, set up earlier': () => ({ root: 'prebuilt', fresh: false }),
  'installed, first use: prebuilt': () => ({ root: 'prebuilt', fresh: true }),
  'installed, first use: compiled': () => ({ root: 'source', fresh: true }),
};
console.log(`${platform}, ${runs} runs each, median (min-max) in ms`);
for (const [name, setup] of Object.entries(cases)) {
  const { root, fresh } = setup();
  const dir = fs.mkdtempSync(path.join(os.homedir(), '.ccc-bench-lookup-'));
  try {
    const packageRoot = root && path.join(dir, 'package');
    if (packageRoot) installedPackage(packageRoot, root === 'prebuilt');
    if (!fresh && packageRoot) lookup(packageRoot, path.join(dir, 'config'));
    const results = [];
    for (let i = 0; i < runs; i++) {
      if (fresh) fs.rmSync(path.join(dir, 'config'), { recursive: true, force: true });
      results.push(lookup(packageRoot, path.join(dir, 'config')));
    }
    const times = results.map((r) => r.lookupMs);
    console.log(
      `${name.padEnd(32)} lookup ${median([...times]).toFixed(2)} (${Math.min(...times).toFixed(2)}-${Math.max(...times).toFixed(2)})  module import ${median(results.map((r) => r.importMs)).toFixed(1)}  [${results[0].origins.join(', ')}]`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
