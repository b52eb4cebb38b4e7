/**
 * Frame parsing: frames per second and peak RSS of ccc's frame pipeline over a
 * generated transcript of BENCH_FRAMES_MB (1 GiB by default), against a bare split2 + JSON.parse
 * loop on the same file; the same at 1/8 of the size (peak RSS must not grow with the input); and a
 * transcript holding one 50 MB line. Each run is its own process; the files live in a temp dir
 * removed afterwards.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateTranscript } from './lib/transcript-gen.mjs';
import { ROOT } from './lib/variants.mjs';

const MiB = 1024 * 1024;
const WORKER = path.join(ROOT, 'bench/frames-worker.mjs');

/** Runs one worker; resolves with its JSON line, or { timedOut } after `timeoutMs`. */
function parseRun(mode, file, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, mode, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ timedOut: true, seconds: timeoutMs / 1000 });
      else if (code !== 0) reject(new Error(`frames worker ${mode} exited ${code}: ${err.slice(0, 500)}`));
      else resolve(JSON.parse(out));
    });
  });
}

function withRate(run, file) {
  if (run.timedOut) return run;
  return { ...run, framesPerS: run.frames / run.seconds, mbPerS: fs.statSync(file).size / MiB / run.seconds };
}

export async function benchFrames({ mb, hugeLineMb, hugeTimeoutS, log }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-bench-frames-'));
  try {
    const big = path.join(dir, 'big.jsonl');
    const small = path.join(dir, 'small.jsonl');
    const huge = path.join(dir, 'huge-line.jsonl');
    const genBig = generateTranscript(big, mb * MiB);
    const genSmall = generateTranscript(small, Math.max(1, Math.round(mb / 8)) * MiB);
    const genHuge = generateTranscript(huge, 16 * MiB, { hugeLineBytes: hugeLineMb * MiB });
    log(`frames: generated ${Math.round(genBig.bytes / MiB)} MiB, ${Math.round(genSmall.bytes / MiB)} MiB and a ${hugeLineMb} MB line`);
    const timeout = 20 * 60 * 1000;
    // ccc and bare alternate; the small file runs between them to let the page cache settle.
    const cccBig = withRate(await parseRun('ccc', big, timeout), big);
    const bareBig = withRate(await parseRun('bare', big, timeout), big);
    log(`frames: ${mb} MiB parsed twice`);
    const cccSmall = withRate(await parseRun('ccc', small, timeout), small);
    const bareSmall = withRate(await parseRun('bare', small, timeout), small);
    const cccHuge = withRate(await parseRun('ccc', huge, hugeTimeoutS * 1000), huge);
    const bareHuge = withRate(await parseRun('bare', huge, hugeTimeoutS * 1000), huge);
    log('frames: 50 MB line parsed');
    return {
      files: { bigMiB: genBig.bytes / MiB, bigLines: genBig.lines, smallMiB: genSmall.bytes / MiB, hugeFileMiB: genHuge.bytes / MiB, hugeLineMB: hugeLineMb },
      big: { ccc: cccBig, bare: bareBig },
      small: { ccc: cccSmall, bare: bareSmall },
      hugeLine: { ccc: cccHuge, bare: bareHuge },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
