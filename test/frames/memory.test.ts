/**
 * A transcript with binary garbage, truncated JSON and one 50 MB line: the valid frames still
 * come through, each bad line gets a WARN, and memory stays bounded. The parse runs in a child
 * node process (the built dist/, so run `npm run build` first) so that its peak RSS is the
 * parse's alone, and it is compared with the same file holding a 1 MB line: memory must not
 * grow with the line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';

const childScript = path.join(repoRoot, 'test', 'frames', 'fixtures', 'parse-file-child.mjs');
const distDir = path.join(repoRoot, 'dist');
const MB = 1024 * 1024;

interface ChildReport {
  frames: number;
  lastType: string;
  warnings: Array<{ message: string; bytes?: number }>;
  maxRssKb: number;
}

/** 1000 frames, a binary line, a truncated line, one huge frame line, 1000 frames. */
function writeTranscript(file: string, hugeBytes: number) {
  const fd = fs.openSync(file, 'w');
  const frames =
    Array.from({ length: 1000 }, (_, i) =>
      JSON.stringify({ type: 'assistant', message: { id: `m${i}`, content: [{ type: 'text', text: `hello ${i}` }] } }),
    ).join('\n') + '\n';
  fs.writeSync(fd, frames);
  fs.writeSync(fd, Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x0a]));
  fs.writeSync(fd, '{"type":"user","message":{"content":"cut short\n');
  fs.writeSync(fd, '{"type":"assistant","pad":"');
  const block = Buffer.alloc(MB, 'x');
  for (let left = hugeBytes; left > 0; left -= block.length) fs.writeSync(fd, block.subarray(0, Math.min(left, block.length)));
  fs.writeSync(fd, '"}\n');
  fs.writeSync(fd, frames.replace(/"type":"assistant"/g, '"type":"user"'));
  fs.closeSync(fd);
}

async function parseInChild(file: string): Promise<ChildReport> {
  const result = await runProcess(process.execPath, [childScript, distDir, file], { timeoutMs: 120_000 });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ChildReport;
}

describe('frames$ on a huge, dirty transcript', () => {
  let dir: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(distDir, 'frames', 'frame-parser.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-memory-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('skips the 50 MB line with a WARN, keeps every valid frame, and stays under 150 MB RSS, as with a 1 MB line', async () => {
    const small = path.join(dir, 'small.jsonl');
    const huge = path.join(dir, 'huge.jsonl');
    writeTranscript(small, MB);
    writeTranscript(huge, 50 * MB);

    const withSmall = await parseInChild(small);
    // The 1 MB line is under the 16 MiB cap: it is a frame.
    expect(withSmall.frames).toBe(2001);

    const withHuge = await parseInChild(huge);
    expect(withHuge.frames).toBe(2000);
    expect(withHuge.lastType).toBe('user');
    const hugeLineBytes = '{"type":"assistant","pad":"'.length + 50 * MB + '"}'.length;
    expect(withHuge.warnings).toEqual([
      { message: 'Skipped a file line: binary data' },
      { message: expect.stringContaining('Skipped a file line: invalid JSON') },
      { message: 'Skipped a file line longer than the limit', bytes: hugeLineBytes },
    ]);

    const peakMb = withHuge.maxRssKb / 1024;
    const growthMb = (withHuge.maxRssKb - withSmall.maxRssKb) / 1024;
    expect(peakMb, `peak RSS ${peakMb.toFixed(0)} MB`).toBeLessThan(150);
    // Holding the line (or a string of it) would add at least its 50 MB.
    expect(growthMb, `RSS growth ${growthMb.toFixed(0)} MB from a 1 MB to a 50 MB line`).toBeLessThan(50);
  });
});
