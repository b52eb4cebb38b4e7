/**
 * Loaded into every Node process of ccc (`NODE_OPTIONS=--expose-gc --import <this file>`, set by
 * bench/observer-churn.mjs with BENCH_CHURN_MEMLOG=1) to tell what holds ccc's memory:
 * `process.memoryUsage()` (rss, V8 heap used and total, external, arrayBuffers) once a second, and,
 * each time the bench writes a new mark into `$BENCH_MEMLOG_DIR/mark`, once more after a full
 * collection, so "what is garbage not yet collected" and "what is held" read apart.
 * One JSON line per reading into `$BENCH_MEMLOG_DIR/<pid>.jsonl`.
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_MEMLOG_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}.jsonl`);
  const role = process.argv.some((a) => a.includes('screen-worker')) ? 'screen worker' : process.argv.slice(1, 3).join(' ');
  const mib = (n) => Math.round((n / 1048576) * 10) / 10;
  const write = (extra) => {
    const m = process.memoryUsage();
    const line = {
      t: Date.now(),
      role,
      rss: mib(m.rss),
      heapUsed: mib(m.heapUsed),
      heapTotal: mib(m.heapTotal),
      external: mib(m.external),
      arrayBuffers: mib(m.arrayBuffers),
      ...extra,
    };
    try {
      fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // the workspace is gone: the run is over
    }
  };
  let seen = '';
  setInterval(() => {
    let mark = '';
    try {
      mark = fs.readFileSync(path.join(dir, 'mark'), 'utf8');
    } catch {
      // no mark yet
    }
    if (mark && mark !== seen && typeof globalThis.gc === 'function') {
      seen = mark;
      globalThis.gc();
      write({ mark, afterGc: true });
    } else write({});
  }, 1000).unref();
}
