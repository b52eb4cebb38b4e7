#!/usr/bin/env node
/**
 * `ccc mcp`'s store against the ways it could be kept, each in a fresh process (so loading counts):
 * the record file ccc uses (dist/), and, when `BENCH_STORE_ALTERNATIVES=<dir>` holds them in
 * `<dir>/node_modules` (`npm install --prefix <dir> better-sqlite3 sql.js node-sqlite3-wasm`),
 * better-sqlite3 (the native store before), node-sqlite3-wasm and sql.js (WebAssembly SQLite).
 * Each writes `BENCH_STORE_WRITES` (300) questions, one at a time as the store does, then checks.
 * Not part of `npm run bench`: `node bench/mcp-store.mjs` after `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const writes = Number(process.env.BENCH_STORE_WRITES ?? 300);
const alternatives = process.env.BENCH_STORE_ALTERNATIVES;
const sql = `CREATE TABLE IF NOT EXISTS feedback (id TEXT PRIMARY KEY, question TEXT NOT NULL, asked_at TEXT NOT NULL, timeout_seconds INTEGER NOT NULL, outcome TEXT NOT NULL DEFAULT 'pending', answer TEXT, via TEXT, settled_at TEXT);`;
const insert = 'INSERT OR REPLACE INTO feedback (id, question, asked_at, timeout_seconds) VALUES (?, ?, ?, ?)';

/** The body of each child: sets `open()` returning { write(i), check(), close() }. Runs with `require` from `from`. */
const backends = {
  'record file (ccc)': `const { openMcpStore } = await import(${JSON.stringify(path.join(here, '..', 'dist', 'mcp', 'storage', 'mcp-store.js'))});
    open = (dir) => { const s = openMcpStore(dir, (m) => { throw new Error(m); }); return { write: (i) => s.recordQuestion({ id: 'q' + i, question: 'Which port should the dev server use?', askedAt: new Date().toISOString(), timeoutSeconds: 60 }), check: () => { const c = s.check(); if (!c.ok) throw new Error(c.error); }, close: () => s.close() }; };`,
  'better-sqlite3': `const Database = require('better-sqlite3');
    open = (dir) => { const db = new Database(dir + '/b.db'); db.pragma('journal_mode = WAL'); db.pragma('busy_timeout = 3000'); db.exec(${JSON.stringify(sql)}); const ins = db.prepare(${JSON.stringify(insert)});
      return { write: (i) => ins.run('q' + i, 'Which port should the dev server use?', new Date().toISOString(), 60), check: () => db.pragma('quick_check', { simple: true }), close: () => db.close() }; };`,
  'node-sqlite3-wasm': `const { Database } = require('node-sqlite3-wasm');
    open = (dir) => { const db = new Database(dir + '/w.db'); db.exec(${JSON.stringify(sql)});
      return { write: (i) => db.run(${JSON.stringify(insert)}, ['q' + i, 'Which port should the dev server use?', new Date().toISOString(), 60]), check: () => db.all('PRAGMA quick_check'), close: () => db.close() }; };`,
  'sql.js': `const SQL = await require('sql.js')();
    open = (dir) => { const file = dir + '/s.db'; const db = new SQL.Database(); db.exec(${JSON.stringify(sql)});
      const persist = () => { const fd = fs.openSync(file + '.tmp', 'w'); fs.writeSync(fd, db.export()); fs.fsyncSync(fd); fs.closeSync(fd); fs.renameSync(file + '.tmp', file); };
      return { write: (i) => { db.run(${JSON.stringify(insert)}, ['q' + i, 'Which port should the dev server use?', new Date().toISOString(), 60]); persist(); }, check: () => db.exec('PRAGMA quick_check'), close: () => db.close() }; };`,
};

function child(body, from, dir) {
  return `import fs from 'node:fs'; import { createRequire } from 'node:module';
    const require = createRequire(${JSON.stringify(path.join(from, 'x.js'))});
    const t0 = performance.now(); let open; ${body}
    const t1 = performance.now(); const store = open(${JSON.stringify(dir)}); const t2 = performance.now();
    const times = []; for (let i = 0; i < ${writes}; i++) { const s = performance.now(); store.write(i); times.push(performance.now() - s); }
    const c = performance.now(); store.check(); const t3 = performance.now(); store.close(); times.sort((a, b) => a - b);
    console.log(JSON.stringify({ loadMs: t1 - t0, openMs: t2 - t1, writeP50: times[times.length >> 1], writeP95: times[Math.floor(times.length * 0.95)], checkMs: t3 - c }));`;
}

const rows = [];
for (const [name, body] of Object.entries(backends)) {
  const from = name.startsWith('record') ? here : alternatives && path.join(alternatives, 'node_modules');
  if (!from) continue;
  const dir = fs.mkdtempSync(path.join(os.homedir(), '.ccc-bench-store-')); // a real disk: tmpfs would make every sync free
  try {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', child(body, from, dir)], { encoding: 'utf8' });
    rows.push({ name, ...JSON.parse(out) });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const ms = (x) => x.toFixed(2).padStart(8);
console.log(`${writes} writes each; ms\n${'store'.padEnd(20)}    load     open write p50 write p95    check`);
for (const r of rows) console.log(`${r.name.padEnd(20)}${ms(r.loadMs)} ${ms(r.openMs)} ${ms(r.writeP50)}  ${ms(r.writeP95)} ${ms(r.checkMs)}`);
