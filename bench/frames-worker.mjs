/**
 * One frame-parsing run in a fresh process, so its peak RSS (VmHWM) belongs to that run alone.
 * `node bench/frames-worker.mjs <ccc|bare> <file>` prints one JSON line:
 * { frames, seconds, hwmMiB, warnings }.
 *
 * - ccc:  `frames$` from the built dist (bounded split2 framing, tolerant parser, RxJS), the way
 *         ccc reads claude's stream-json and transcripts.
 * - bare: the floor: split2 + JSON.parse in a data handler, no validation, no bounds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import split2 from 'split2';
import { ProxyTree } from './lib/proc-status.mjs';

const [mode, file] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Loaded before the clock starts: module loading is not parsing. BENCH_FRAMES_DIST points at
// another build (a branch's dist) to compare two versions of the pipeline.
const dist = process.env.BENCH_FRAMES_DIST ?? path.join(root, 'dist');
const { frames$ } = mode === 'ccc' ? await import(path.join(dist, 'frames/frame-parser.js')) : {};

async function runCcc() {
  let frames = 0;
  let warnings = 0;
  const logger = { warn: () => void (warnings += 1) };
  await new Promise((resolve, reject) => {
    frames$(fs.createReadStream(file), { logger, source: 'bench' }).subscribe({ next: () => void (frames += 1), complete: resolve, error: reject });
  });
  return { frames, warnings };
}

async function runBare() {
  let frames = 0;
  await new Promise((resolve, reject) => {
    fs.createReadStream(file)
      .pipe(split2())
      .on('data', (line) => {
        JSON.parse(line);
        frames += 1;
      })
      .on('end', resolve)
      .on('error', reject);
  });
  return { frames, warnings: 0 };
}

const t0 = process.hrtime.bigint();
const result = mode === 'ccc' ? await runCcc() : await runBare();
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
process.stdout.write(JSON.stringify({ ...result, seconds, hwmMiB: new ProxyTree(process.pid).memory().each[0].hwmMiB }) + '\n');
