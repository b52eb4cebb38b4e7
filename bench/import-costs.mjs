#!/usr/bin/env node
/**
 * The start-up costs that decide how some modules are loaded, each in a fresh Node process
 * (median of `BENCH_IMPORT_RUNS`, 7): a CommonJS package imported the ESM way (Node scans the file
 * for its export names first) against `createRequire` (jiti, commander); the `rxjs` index against
 * the one class module ccc loads; a ccc.config.ts through jiti without and with its transpile
 * cache; and hashing the two native helpers as ccc does before running them. The figures are the
 * ones code comments used to carry. Not part of `npm run bench`: `node bench/import-costs.mjs`
 * after `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 7);

/** The median of `runs` fresh processes' own timing of `body` (an ES module's source), in ms. */
function timed(body) {
  const file = path.join(repo, `.bench-import-${process.pid}.mjs`);
  fs.writeFileSync(
    file,
    `import { performance } from 'node:perf_hooks';\nconst t0 = performance.now();\n${body}\nprocess.stdout.write(String(performance.now() - t0));\n`,
  );
  try {
    const times = Array.from({ length: runs }, () => Number(execFileSync(process.execPath, [file], { cwd: repo, encoding: 'utf8' })));
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const requireHead = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);";
const config = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-bench-config-'));
fs.writeFileSync(
  path.join(config, 'ccc.config.ts'),
  "import { defineConfig } from 'ccc-supervisor';\nexport default defineConfig({ supervisor: { max_iterations: 5 } });\n",
);
const cache = path.join(config, 'cache');
const loadConfig = (cacheDir) =>
  `${requireHead}\nconst { createJiti } = require('jiti');\nawait createJiti(import.meta.url, { fsCache: ${JSON.stringify(cacheDir)}, moduleCache: false, alias: { 'ccc-supervisor': ${JSON.stringify(path.join(repo, 'dist', 'index.js'))} } }).import(${JSON.stringify(path.join(config, 'ccc.config.ts'))});`;

const rows = [
  ['jiti, ESM import', timed("await import('jiti');")],
  ['jiti, createRequire', timed(`${requireHead}\nrequire('jiti');`)],
  ['commander, ESM import', timed("await import('commander');")],
  ['commander, createRequire', timed(`${requireHead}\nrequire('commander');`)],
  ["rxjs index (`import 'rxjs'`)", timed("await import('rxjs');")],
  ['rxjs Observable module only', timed("await import('rxjs/internal/Observable');")],
  ['ccc.config.ts through jiti, no cache', timed(loadConfig(false))],
];
timed(loadConfig(cache)); // fills the cache
rows.push(['ccc.config.ts through jiti, cached', timed(loadConfig(cache))]);
fs.rmSync(config, { recursive: true, force: true });

const prebuilt = path.join(repo, 'dist', 'prebuilt', `${process.platform}-${process.arch}`);
if (fs.existsSync(prebuilt)) {
  const helpers = ['ccc-relay', 'ccc-lifeline'].map((h) => path.join(prebuilt, h));
  const kb = helpers.map((h) => Math.round(fs.statSync(h).size / 1024)).join(' and ');
  rows.push([
    `sha256 of both helpers (${kb} KiB)`,
    timed(
      `import crypto from 'node:crypto';\nimport fs from 'node:fs';\nfor (const f of ${JSON.stringify(helpers)}) crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');`,
    ),
  ]);
}

console.log(`# Import costs (node ${process.version}, ${os.cpus().length} cores, median of ${runs} fresh processes)\n`);
console.log('| what | ms |\n|---|---|');
for (const [what, ms] of rows) console.log(`| ${what} | ${ms.toFixed(1)} |`);
