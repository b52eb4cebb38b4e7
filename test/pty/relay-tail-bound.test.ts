/**
 * The relay's queue to ccc is bounded also for tails: every time ccc switches the tee on the
 * relay answers with its tail (up to --tail-bytes), and a ccc that is behind (busy, not reading)
 * while observers come and go must not make it queue one tail per switch. The rule (native/relay.c,
 * `send_tail`): output and tails queued for ccc stay within TEE_LIMIT (4 MiB); a tail that does
 * not fit is cut to its newest bytes, down to none, and every switch still gets its 'R' frame.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { findRelay } from '../../src/pty/native-relay.js';
import { encodeRelayFrame, RelayFrameDecoder } from '../../src/pty/relay-frames.js';

const TAIL_BYTES = 1024 * 1024;
const TEE_LIMIT = 4 * 1024 * 1024;
const SWITCHES = 60;

const rssMiB = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

it('keeps what it queues for a ccc that does not read within its limit, however often the tee is switched on', async () => {
  const relay = findRelay({});
  expect(relay).toBeDefined();
  // 2 MiB of output fills the 1 MiB tail; then the agent waits (its output is done before the switches).
  const agent = `head -c ${2 * TAIL_BYTES} /dev/zero | tr '\\0' x; printf DONE; exec sleep 60`;
  const child = spawn(relay!, ['--tail-bytes', String(TAIL_BYTES), '--inject-idle-ms', '10', '--cols', '80', '--rows', '24', '--', '/bin/sh', '-c', agent], {
    stdio: ['pipe', 'pipe', 'inherit', 'pipe'],
  });
  cleanup = () => child.kill('SIGKILL');
  const channel = child.stdio[3] as Socket;
  channel.pause(); // ccc is busy: nothing is read from the relay until the end
  let terminal = '';
  child.stdout!.setEncoding('latin1').on('data', (text: string) => (terminal = (terminal + text).slice(-64)));
  await expect.poll(() => terminal, { timeout: 30_000 }).toContain('DONE');

  for (let i = 0; i < SWITCHES; i++) {
    channel.write(encodeRelayFrame('O', Buffer.from([1])));
    channel.write(encodeRelayFrame('O', Buffer.from([0])));
  }
  // Frames are handled in order: once this injection reaches the terminal, every switch was.
  channel.write(encodeRelayFrame('T', Buffer.from('MARK')));
  await expect.poll(() => terminal, { timeout: 30_000 }).toContain('MARK');
  // One tail per switch would be 60 MiB here.
  expect(rssMiB(child.pid!)).toBeLessThan(16);

  const tails: number[] = [];
  const decoder = new RelayFrameDecoder();
  channel.on('data', (chunk: Buffer) => decoder.push(chunk, (frame) => frame.type === 'R' && tails.push(frame.payload.length)));
  channel.resume();
  await expect.poll(() => tails.length, { timeout: 30_000 }).toBe(SWITCHES);
  expect(tails[0]).toBe(TAIL_BYTES);
  // The relay's own queue holds at most TEE_LIMIT; what it wrote while the socket still had room
  // sat in the kernel's send buffer and in this paused stream's buffer, outside that queue.
  const inFlight = Number(fs.readFileSync('/proc/sys/net/core/wmem_default', 'utf8')) + channel.readableHighWaterMark;
  expect(tails.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(TEE_LIMIT + inFlight);
}, 90_000);
