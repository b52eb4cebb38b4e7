/**
 * The native relay (native/relay.c) under ccc's side of it (src/pty/native-relay.ts), in a real
 * pty: what ccc sees of the session (the output copy, typed input, the alternate screen, the exit)
 * must match what the user's terminal got, and ccc's own bytes must land where they cannot split
 * the agent's sequences. The frame codec between the two is fuzzed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findRelay, startNativeRelay } from '../../src/pty/native-relay.js';
import { encodeRelayFrame, MAX_FRAME_BYTES, RelayFrameDecoder } from '../../src/pty/relay-frames.js';
import { resetSequence } from '../../src/pty/terminal-modes.js';
import { repoRoot } from '../support/claude-env.js';
import { startPty } from '../support/pty-harness.js';

const driver = path.join(repoRoot, 'test', 'fixtures', 'relay-driver.mjs');

interface Report {
  exit: { exitCode: number; signal?: number };
  pid: number | undefined;
  output: string;
  input: string;
  altScreen: boolean;
  tails: string[];
  errors: string[];
}

describe('relay frames', () => {
  /** Feeds `stream` cut at `cuts` and returns each frame as it was seen during its callback. */
  const decodeCut = (stream: Buffer, cuts: number[]) => {
    const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
    const decoder = new RelayFrameDecoder();
    const got: Array<{ type: string; payload: number[] }> = [];
    let from = 0;
    for (const at of [...points, stream.length]) {
      // Payloads are views valid during the callback only: copied there, as ccc does.
      decoder.push(stream.subarray(from, at), (f) => got.push({ type: f.type, payload: [...f.payload] }));
      from = at;
    }
    return got;
  };
  const encodeAll = (frames: Array<{ type: string; payload: Uint8Array }>) => Buffer.concat(frames.map((f) => encodeRelayFrame(f.type, Buffer.from(f.payload))));
  const plain = (frames: Array<{ type: string; payload: Uint8Array }>) => frames.map((f) => ({ type: f.type, payload: [...f.payload] }));

  it('decode to what was encoded, however the stream is cut', () => {
    const frame = fc.record({ type: fc.constantFrom('O', 'I', 'S', 'X', 'P', 'G', 'E'), payload: fc.uint8Array({ maxLength: 300 }) });
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 20 }), fc.array(fc.nat(2000), { maxLength: 10 }), (frames, cuts) => {
        expect(decodeCut(encodeAll(frames), cuts)).toEqual(plain(frames));
      }),
    );
  });

  it('decode frames larger than the assembly buffer, split anywhere', () => {
    const frame = fc.record({ type: fc.constantFrom('O', 'R'), payload: fc.uint8Array({ minLength: 60_000, maxLength: 200_000 }) });
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

  async function run(script: string, env: Record<string, string> = {}, act?: (h: ReturnType<typeof startPty>) => Promise<void>) {
    const report = path.join(dir, 'report.json');
    const h = startPty(process.execPath, [driver, '/bin/sh', '-c', script], { cwd: dir, env: { ...process.env, RELAY_REPORT: report, ...env }, cols: 100, rows: 30 });
    await act?.(h);
    const exited = await h.exited;
    const result = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
    return { exited, terminal: h.output(), result, output: Buffer.from(result.output, 'base64'), input: Buffer.from(result.input, 'base64') };
  }

  it('copies exactly what the user terminal got, reports typed input, the alternate screen and the exit code, and restores the terminal', async () => {
    const script = `printf 'READY\\n'; stty raw -echo; head -c 5 > typed.txt; printf '\\033[?1049hon the alternate screen \\342\\234\\223'; exit 5`;
    const { exited, terminal, result, output, input } = await run(script, {}, async (h) => {
      await h.waitForOutput(/READY/);
      await h.type('hello', 20);
    });
    expect(exited.exitCode).toBe(5);
    expect(result.exit).toEqual({ exitCode: 5 });
    expect(result.pid).toBeGreaterThan(0);
    expect(result.errors).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'typed.txt'), 'utf8')).toBe('hello');
    expect(input.toString()).toBe('hello');
    expect(result.altScreen).toBe(true);
    // The terminal got the copy's bytes, then the relay's restore: leave the alternate screen, modes off.
    const reset = Buffer.from(resetSequence(true));
    expect(terminal.subarray(terminal.length - reset.length).equals(reset)).toBe(true);
    expect(terminal.subarray(0, terminal.length - reset.length).equals(output)).toBe(true);
    expect(output.toString()).toContain('on the alternate screen ✓');
  });

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

  it('writes an injected title where it cannot split a sequence of the agent', async () => {
    const title = '\x1b]0;ccc: reviewing\x07';
    // The agent stops for 50 ms inside an SGR sequence; the title is asked for right then.
    const script = `printf 'READY\\n\\033[31'; sleep 0.05; printf 'mRED\\033[0m\\n'; sleep 0.3; printf 'END\\n'`;
    const { output, terminal } = await run(script, { RELAY_INJECT: title, RELAY_INJECT_AFTER: '\x1b[31' });
    const text = terminal.toString('latin1');
    expect(text).toContain('\x1b[31mRED');
    expect(text.indexOf(title)).toBeGreaterThan(text.indexOf('\x1b[31mRED'));
    expect(output.toString('latin1')).toContain(title);
  });

  it('passes a signal from ccc on to the agent and reports it', async () => {
    const { exited, result } = await run(`printf 'READY\\n'; exec sleep 30`, { RELAY_KILL: 'SIGTERM', RELAY_KILL_AFTER: 'READY' });
    expect(result.exit).toEqual({ exitCode: 0, signal: 15 });
    expect(exited.exitCode).toBe(143);
  });

  it('reports an agent that cannot be started, with exit code 127', async () => {
    const report = path.join(dir, 'report.json');
    const h = startPty(process.execPath, [driver, path.join(dir, 'no-such-agent')], { cwd: dir, env: { ...process.env, RELAY_REPORT: report } });
    expect((await h.exited).exitCode).toBe(127);
    const result = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
    expect(result.errors).toEqual([`cannot run ${path.join(dir, 'no-such-agent')}: No such file or directory`]);
    expect(result.pid).toBeUndefined();
  });

  /** A relay that never runs: its exit, its pid and the errors it reported. */
  async function neverStarted(relayPath: string, command: string, args: string[]) {
    const errors: string[] = [];
    const relay = await startNativeRelay({ relayPath, command, args, cwd: dir, env: process.env, cols: 80, rows: 24, teeOutput: false, onError: (message) => errors.push(message) });
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

  it('keeps the tail while nobody watches, and sends it before the live copy when watching starts', async () => {
    const script = `i=0; while [ $i -lt 100 ]; do printf x; i=$((i+1)); done; printf TAIL-END; sleep 0.8; printf 'LIVE\\n'`;
    const { terminal, result, output } = await run(script, { RELAY_TAIL: '20', RELAY_WATCH_MS: '300' });
    expect(result.tails).toEqual([Buffer.from('xxxxxxxxxxxxTAIL-END').toString('base64'), 'watching']);
    const reset = Buffer.from(resetSequence(false));
    // Tail and live copy together are the terminal's last bytes (before the relay's restore).
    const copied = Buffer.concat([Buffer.from('xxxxxxxxxxxxTAIL-END'), output]);
    expect(terminal.subarray(terminal.length - reset.length - copied.length, terminal.length - reset.length).equals(copied)).toBe(true);
    expect(output.toString()).toMatch(/^LIVE\r?\n$/);
  });

  it('sends no output copy when no observer needs it', async () => {
    const { output, terminal } = await run(`printf 'some output\\n'`, { RELAY_TEE: '0' });
    expect(terminal.toString()).toContain('some output');
    expect(output.length).toBe(0);
  });
});
