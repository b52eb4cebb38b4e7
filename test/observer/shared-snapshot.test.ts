/**
 * Joiners that arrive while the screen worker is making a screen share it, with the real worker:
 * one request for all of them, and each replays exactly the output after the screen's position,
 * also when they joined at different places inside escape sequences and UTF-8 characters. A joiner
 * that leaves while its screen is being made costs no screen: the worker is told to drop it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createObserverHub, type ObserverHub } from '../../src/observer/observer-hub.js';
import type { ObserverSocket } from '../../src/observer/observer-connection.js';
import { spawnScreenWorker, startScreenMirror, type ScreenMirror } from '../../src/observer/screen-mirror.js';
import type { ScreenWorkerPort } from '../../src/observer/screen-worker-protocol.js';
import type { MirrorReply, MirrorRequest } from '../../src/observer/screen-worker-protocol.js';
import { silentLogger } from '../../src/observer/observer-logger.js';
import { testHello } from './support/start-test-observer.js';
import { newTerminal, screenText, writeAll } from './support/screen.js';

const cols = 60;
const rows = 12;

/** A socket that takes everything at once and keeps the messages. */
function recordingSocket() {
  const messages: Array<{ type: string; data?: string; snapshot?: boolean }> = [];
  const socket: ObserverSocket & { messages: typeof messages } = {
    messages,
    bufferedAmount: 0,
    send(data, written) {
      messages.push(JSON.parse(data.toString('utf8')) as (typeof messages)[number]);
      written?.();
    },
    close() {},
    terminate() {},
  };
  return socket;
}

const pty = (socket: ReturnType<typeof recordingSocket>) => socket.messages.filter((m) => m.type === 'pty');
const snapshotOf = (socket: ReturnType<typeof recordingSocket>) => {
  const first = pty(socket)[0];
  return first?.snapshot ? Buffer.from(first.data!, 'base64') : undefined;
};
const liveOf = (socket: ReturnType<typeof recordingSocket>) =>
  Buffer.concat(
    pty(socket)
      .filter((m) => !m.snapshot)
      .map((m) => Buffer.from(m.data!, 'base64')),
  );

/** The real screen worker, with what the mirror asks of it and what it answers recorded. */
function recordedWorker() {
  const requests: MirrorRequest[] = [];
  const replies: MirrorReply[] = [];
  const spawnWorker = (data: Parameters<typeof spawnScreenWorker>[0]): ScreenWorkerPort => {
    const worker = spawnScreenWorker(data);
    worker.on('message', (reply) => replies.push(reply));
    return {
      postMessage(message, transfer) {
        requests.push(message);
        worker.postMessage(message, transfer);
      },
      on: worker.on.bind<ScreenWorkerPort['on']>(worker),
      removeAllListeners: (event) => worker.removeAllListeners(event),
      terminate: () => worker.terminate(),
    };
  };
  const snapshotRequests = () => requests.filter((r) => r.type === 'snapshot');
  return { requests, replies, snapshotRequests, spawnWorker };
}

let mirror: ScreenMirror | undefined;
let hub: ObserverHub | undefined;
afterEach(async () => {
  hub?.end();
  await mirror?.close();
  hub = mirror = undefined;
});

function start(worker: ReturnType<typeof recordedWorker>) {
  mirror = startScreenMirror({
    cols,
    rows,
    scrollbackLines: 1000,
    tailBytes: 1 << 16,
    idleWorkerMs: 60_000,
    logger: silentLogger,
    spawnWorker: worker.spawnWorker,
  });
  hub = createObserverHub({
    hello: { ...testHello, cols, rows },
    allowInput: false,
    maxObservers: 10,
    maxQueueBytes: 1 << 22,
    snapshotBytes: 1 << 20,
    mirror,
    logger: silentLogger,
  });
  return hub;
}

describe('a screen shared by joiners', () => {
  it('is asked for once, and each joiner replays exactly the bytes after it, whichever sequence it joined inside', async () => {
    const worker = recordedWorker();
    const h = start(worker);
    const reference = newTerminal(cols, rows);
    const kanji = Buffer.from('漢');
    // Each joiner joins right after one of these parts: inside a CSI, inside an OSC, inside a
    // UTF-8 character. All three ask for their screen in the same turn, inside that character.
    const parts = [
      Buffer.from('\x1b[1mbold\x1b[0m line\r\nplain \x1b[3'),
      Buffer.from('1mred\x1b[0m \x1b]0;tit'),
      Buffer.concat([Buffer.from('le\x07 after osc '), kanji.subarray(0, 2)]),
    ];
    const sockets = parts.map((part) => {
      h.publishPty(part);
      const socket = recordingSocket();
      h.join(socket);
      return socket;
    });
    // Completes the character, then live output after the screen.
    const rest = [Buffer.concat([kanji.subarray(2), Buffer.from(' done\r\n')]), Buffer.from('\x1b[32mthe end\x1b[0m')];
    for (const part of rest) h.publishPty(part);
    for (const part of [...parts, ...rest]) await writeAll(reference, part);

    for (const socket of sockets) {
      await expect.poll(() => liveOf(socket).toString('latin1').endsWith('the end\x1b[0m'), { timeout: 30_000 }).toBe(true);
      const client = newTerminal(cols, rows);
      await writeAll(client, snapshotOf(socket)!);
      await writeAll(client, liveOf(socket));
      expect(screenText(client)).toBe(screenText(reference));
      expect(screenText(client)).toContain('plain red  after osc 漢 done');
    }
    expect(worker.snapshotRequests()).toHaveLength(1);
  });

  it('costs no screen for a joiner that leaves before or while it is made', async () => {
    const worker = recordedWorker();
    const h = start(worker);
    h.publishPty(Buffer.from('output \x1b[3'));
    // Leaves before its screen is asked for: nothing is asked.
    const before = h.join(recordingSocket())!;
    h.leave(before);
    await new Promise((resolve) => setImmediate(resolve));
    expect(worker.snapshotRequests()).toHaveLength(0);
    // Leaves while the worker waits for the open sequence to end: the request is withdrawn.
    const during = h.join(recordingSocket())!;
    await expect.poll(() => worker.snapshotRequests(), { timeout: 30_000 }).toHaveLength(1);
    h.leave(during);
    const withdrawn = worker.snapshotRequests()[0]!.id;
    expect(worker.requests.at(-1)).toEqual({ type: 'cancel', id: withdrawn });
    // The sequence ends and a new joiner asks: only its screen is made.
    h.publishPty(Buffer.from('1m red\x1b[0m\r\n'));
    const next = recordingSocket();
    h.join(next);
    await expect.poll(() => snapshotOf(next), { timeout: 30_000 }).toBeDefined();
    const client = newTerminal(cols, rows);
    await writeAll(client, snapshotOf(next)!);
    expect(screenText(client)).toContain('output  red');
    expect(worker.replies.map((r) => r.id)).toEqual([worker.snapshotRequests()[1]!.id]);
  });
});
