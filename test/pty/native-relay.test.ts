/**
 * What only the native relay (native/relay.c, ccc's side in src/pty/native-relay.ts) has: its frame
 * codec (fuzzed), finding it, the pipe when no private socket can be made, and a relay that cannot
 * start. The byte path's contract, which it shares with the Node proxy, is tested over both in
 * byte-path-contract.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { findRelay, startNativeRelay } from '../../src/pty/native-relay.js';
import { encodeRelayFrame, MAX_FRAME_BYTES, RelayFrameDecoder } from '../../src/pty/relay-frames.js';
import { resetSequence } from '../../src/pty/terminal-modes.js';
import { repoRoot } from '../support/claude-env.js';
import { descendants, isAlive } from '../support/process-tree.js';
import { it, type Fixtures, type Rig } from '../support/fixtures.js';
import type { PtyHarness } from '../support/pty-harness.js';

// Each test's terminals come from its rig, which kills what is left of them after the test.
let rig: Rig;
beforeEach<Fixtures>(({ rig: own }) => {
  rig = own;
});

const driver = path.join(repoRoot, 'test', 'fixtures', 'byte-path-driver.mjs');

interface Report {
  exit: { exitCode: number; signal?: number };
  output: string;
  input: string;
  errors: string[];
  pid?: number;
  sttyBefore?: string;
  sttyAfter?: string;
}

/** Every byte value, from a seed: the same bytes for the same seed (fast-check's shrinking replays it). */
function pseudoRandomBytes(seed: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = state >>> 16;
  }
  return bytes;
}

describe('relay frames', () => {
  /** Feeds `stream` cut at `cuts` and returns each frame as it was seen during its callback. */
  const decodeCut = (stream: Buffer, cuts: number[]) => {
    const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
    const decoder = new RelayFrameDecoder();
    const got: Array<{ type: string; payload: string }> = [];
    let from = 0;
    for (const at of [...points, stream.length]) {
      // Payloads are views valid during the callback only: copied there, as ccc does.
      decoder.push(stream.subarray(from, at), (f) => got.push({ type: f.type, payload: Buffer.from(f.payload).toString('base64') }));
      from = at;
    }
    return got;
  };
  const encodeAll = (frames: Array<{ type: string; payload: Uint8Array }>) =>
    Buffer.concat(frames.map((f) => encodeRelayFrame(f.type, Buffer.from(f.payload))));
  // Payloads compared as base64 text: one string comparison, where arrays of numbers were compared
  // element by element (12 s for the large frames on an idle machine, 127 s on a loaded one, the
  // worker blocked past vitest's 60 s RPC limit).
  const plain = (frames: Array<{ type: string; payload: Uint8Array }>) =>
    frames.map((f) => ({ type: f.type, payload: Buffer.from(f.payload).toString('base64') }));

  it('decode to what was encoded, however the stream is cut', () => {
    const frame = fc.record({ type: fc.constantFrom('O', 'I', 'S', 'X', 'P', 'G', 'E'), payload: fc.uint8Array({ maxLength: 300 }) });
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 20 }), fc.array(fc.nat(2000), { maxLength: 10 }), (frames, cuts) => {
        expect(decodeCut(encodeAll(frames), cuts)).toEqual(plain(frames));
      }),
    );
  });

  it('decode frames larger than the assembly buffer, split anywhere', () => {
    // Large payloads made from a generated seed and length: fast-check draws each byte of a
    // uint8Array on its own, seconds for a few hundred KiB.
    const frame = fc
      .record({ type: fc.constantFrom('O', 'R'), length: fc.integer({ min: 60_000, max: 200_000 }), seed: fc.integer({ min: 1, max: 0x7fffffff }) })
      .map(({ type, length, seed }) => ({ type, payload: pseudoRandomBytes(seed, length) }));
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(1_000_000), { maxLength: 12 }), (frames, cuts) => {
        expect(decodeCut(encodeAll(frames), cuts)).toEqual(plain(frames));
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a length no relay sends, naming it', () => {
    const header = Buffer.alloc(5);
    header[0] = 0x4f;
    header.writeUInt32LE(MAX_FRAME_BYTES + 1, 1);
    expect(() => new RelayFrameDecoder().push(header, () => {})).toThrow(/relay frame of \d+ bytes \(type "O"\): the stream is broken/);
  });
});

describe('native relay', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-relay-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is built with the package, and CCC_RELAY=off or a missing path chooses the Node proxy', () => {
    expect(findRelay({})).toMatch(/ccc-relay$/);
    expect(findRelay({ CCC_RELAY: 'off' })).toBeUndefined();
    expect(findRelay({ CCC_RELAY: path.join(dir, 'nowhere') })).toBeUndefined();
  });

  async function run(script: string, env: Record<string, string> = {}, act?: (h: PtyHarness) => Promise<void>) {
    const report = path.join(dir, 'report.json');
    const h = rig.pty(process.execPath, [driver, '/bin/sh', '-c', script], {
      cwd: dir,
      env: { ...process.env, BYTE_PATH: 'relay', DRIVER_REPORT: report, DRIVER_WATCH: '1', ...env },
      cols: 100,
      rows: 30,
    });
    await act?.(h);
    const exited = await h.exited;
    const result = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
    return { exited, terminal: h.output(), result, output: Buffer.from(result.output, 'base64'), input: Buffer.from(result.input, 'base64') };
  }

  it('talks to the relay over a pipe, and says so, when no private socket can be made', async () => {
    const script = `printf 'READY\\n'; stty raw -echo; head -c 3 > typed.txt; printf 'through the pipe'; exit 4`;
    const { exited, terminal, result, output, input } = await run(script, { TMPDIR: path.join(dir, 'no-such-dir') }, async (h) => {
      await h.waitForOutput(/READY/);
      await h.type('abc', 20);
    });
    expect(exited.exitCode).toBe(4);
    expect(result.exit).toEqual({ exitCode: 4 });
    expect(result.errors).toEqual([expect.stringMatching(/^relay: no private socket for the relay \(.*ENOENT.*\); using a pipe$/)]);
    expect(input.toString()).toBe('abc');
    const reset = Buffer.from(resetSequence(false));
    expect(terminal.subarray(0, terminal.length - reset.length).equals(output)).toBe(true);
    expect(output.toString()).toContain('through the pipe');
  });

  it('says on the terminal, after restoring it, that the session ended because the relay was killed, and the agent ends too', async () => {
    const { terminal, result } = await run(`stty raw -echo; printf '\\033[?1049hREADY\\n'; exec sleep 30`, {}, async (h) => {
      await h.waitForOutput(/READY/);
      // The relay is ccc's child; its forked copy leading the agent's session is the relay's.
      const relay = descendants(h.pty.pid).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ccc-relay'))!;
      process.kill(relay, 'SIGKILL');
    });
    const text = terminal.toString('latin1');
    const reset = resetSequence(true);
    expect(text).toContain(reset);
    expect(text.slice(text.lastIndexOf(reset) + reset.length)).toMatch(
      /^\r?\n?ccc: the session ended: its byte relay \(ccc-relay\) was killed by SIGKILL, and the agent with it \(its terminal closed\)\.\r?\n$/,
    );
    expect(result.sttyAfter).toBe(result.sttyBefore);
    expect(result.errors).toEqual(["the relay ended without reporting the agent's exit (SIGKILL)"]);
    await expect.poll(() => isAlive(result.pid!), { timeout: 10_000 }).toBe(false);
  });

  it("keeps the agent's exit report for a ccc busy when the agent exits, whose next frame comes after the report", async () => {
    // ccc's event loop held while the agent exits, then a frame written to the relay, as the session
    // ccc opens at the agent's exit writes one. A relay already gone fails that write (EPIPE), and
    // Node closes a socket whose write failed, the exit report unread: "the relay ended without
    // reporting". The relay stays until ccc has closed its end.
    const steps = [
      [
        ['block', '3000'],
        ['send', 'x'],
      ],
    ];
    const { exited, result } = await run(`printf 'READY\\n'; sleep 0.3; exit 5`, { DRIVER_STEPS: JSON.stringify(steps) }, async (h) => {
      await h.waitForOutput(/READY/);
      process.kill(h.pty.pid, 'SIGUSR1');
    });
    expect(result.errors).toEqual([]);
    expect(result.exit).toEqual({ exitCode: 5 });
    expect(exited.exitCode).toBe(5);
  });

  /** A relay that never runs: its exit, its pid and the errors it reported. */
  async function neverStarted(relayPath: string, command: string, args: string[]) {
    const errors: string[] = [];
    const relay = await startNativeRelay({ relayPath, command, args, cwd: dir, env: process.env, cols: 80, rows: 24 });
    relay.errors$.subscribe((message) => errors.push(message));
    return { exit: await relay.exit, pid: await relay.pid, errors };
  }

  it('reports a relay that cannot be started as exit 127 with the reason, and nothing hangs', async () => {
    const { exit, pid, errors } = await neverStarted(path.join(dir, 'no-relay'), '/bin/true', []);
    expect(exit).toEqual({ exitCode: 127 });
    expect(pid).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/^cannot start .*no-relay: spawn .*no-relay ENOENT$/)]);
  });

  it('reports a relay that spawn refuses outright (an argument with a NUL byte) the same way', async () => {
    const { exit, pid, errors } = await neverStarted(findRelay()!, '/bin/echo', ['bad\0argument']);
    expect(exit).toEqual({ exitCode: 127 });
    expect(pid).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/^cannot start .*ccc-relay: .*null bytes/)]);
  });
});
