/**
 * The byte path in native code: `ccc-relay` (native/relay.c) runs the agent in a pty and copies
 * bytes between it and the user's terminal with one poll loop, as script(1) does, so keystrokes and
 * output never wait for this process's event loop (ccc's Node proxy on node-pty was slower than
 * script on both keystrokes and throughput; see bench/RESULTS.md, "Native relay against the Node
 * proxy"). ccc stays beside it and
 * talks to the relay over a socket (fd 3): title updates and observer input go in; a copy of the
 * output (only while observers are attached), the typed input in batches, alternate-screen changes
 * and the exit come out.
 *
 * RxJS loads once the relay has been spawned (nothing before the agent's start that it does not
 * need: docs/design/architecture.md, "Start-up"); stream frames that arrive before the caller could
 * subscribe are held and delivered, in order, right after `startNativeRelay` resolves
 * (relay-outlets.ts).
 *
 * A `NativeRelay` owns what the relay's run holds (ccc's end of the channel, the frames waiting to
 * be sent, the pid's promise, the streams) in one `DisposableStore`, disposed once when the relay
 * is known to be gone: it closed, or it never started.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Socket } from 'node:net';
import type { AgentExit, BytePath } from './byte-path.js';
import { DisposableStore } from '../lifetime/disposable-store.js';
import { RelayFrameDecoder, type RelayFrame } from './relay-frames.js';
import { onStdoutResize, stdoutSize } from './terminal.js';
import { openRelayChannel } from './relay-channel.js';
import { bytePathStreams } from './byte-path-streams.js';
import { RelayOutlets } from './relay-outlets.js';
import { saveTerminal, writeStderrSync, type TerminalRestore } from './relay-restore.js';
import { RelaySender } from './relay-sender.js';
import { spawnRelay, type RelaySpawnOptions } from './relay-spawn.js';
import { findNativeHelper } from '../native/native-helpers.js';
import { errorText } from '../errors.js';
import { childEndText } from '../process/child-end.js';

/** `CCC_RELAY`'s binary, else ccc's own (src/native/native-helpers.ts), or undefined: the Node proxy then. */
export function findRelay(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.CCC_RELAY;
  if (chosen === 'off') return undefined;
  if (!chosen) return findNativeHelper('ccc-relay', env);
  try {
    fs.accessSync(chosen, fs.constants.X_OK);
    return chosen;
  } catch {
    return undefined;
  }
}

export async function startNativeRelay(options: RelaySpawnOptions): Promise<BytePath> {
  const relay = new NativeRelay(options);
  /** Settles once the relay's spawn was tried: its exit, wrapped so that awaiting the attempt does not wait for it. */
  const attempt = relay.start();
  const exit = attempt.then((tried) => tried.exit);
  // A channel that could not be opened rejects `exit` too; the caller learns of it there.
  await attempt.catch(() => {});
  const [{ Subject }, { resizes, withCurrent }] = await Promise.all([import('../rx.js'), import('./state-streams.js')]);
  const streams = bytePathStreams(Subject);
  // The exit is reported after everything before it: held items delivered, streams completed (as on the Node path).
  const completed = relay.outlets.attach(streams);
  return {
    kind: 'relay',
    ptyOutput$: streams.ptyOutput$,
    stdin$: streams.stdin$,
    typed$: streams.typed$,
    gap$: streams.gap$,
    tail$: streams.tail$,
    errors$: streams.errors$,
    altScreen$: withCurrent(() => relay.altScreenActive, streams.altScreenChange$),
    // The relay follows the terminal's size itself (SIGWINCH); ccc only reads it.
    resize$: resizes({ size: stdoutSize, onResize: onStdoutResize }),
    exit: exit.then(async (result) => {
      await completed;
      return result;
    }),
    pid: relay.pid,
    inject: (bytes) => relay.sender.send('T', Buffer.from(bytes)),
    sendToAgent: (bytes) => relay.sender.send('W', bytes),
    watch: (on) => {
      if (!relay.sender.open) return Promise.resolve();
      relay.sender.send('O', Buffer.from([on ? 1 : 0]));
      return on ? relay.outlets.nextTail() : Promise.resolve();
    },
    kill: (signal) => {
      const payload = Buffer.alloc(4);
      payload.writeInt32LE(os.constants.signals[signal]);
      relay.sender.send('K', payload);
    },
    size: stdoutSize,
  };
}

/** One run of the relay, from before its spawn to the moment it is known to be gone. */
class NativeRelay {
  /** Released once the relay closed or never started; what fails to let go is said on `errors$`. */
  readonly #store = new DisposableStore({ onError: (error) => this.outlets.error(`relay teardown: ${errorText(error)}`) });
  readonly outlets = this.#store.add(new RelayOutlets());
  readonly sender = this.#store.add(new RelaySender());
  readonly pid: Promise<number | undefined>;
  #resolvePid!: (pid: number | undefined) => void;
  /** Known before the streams exist: a killed relay's restore needs it at any time. */
  #altScreenActive = false;
  #reported: AgentExit | undefined;
  /** ccc's end of the channel, once it exists. */
  #channel: Socket | undefined;
  readonly #decoder = new RelayFrameDecoder();
  readonly #terminal: TerminalRestore;
  readonly #options: RelaySpawnOptions;

  constructor(options: RelaySpawnOptions) {
    this.#options = options;
    // Read before the spawn: the relay sets raw mode as it starts.
    this.#terminal = saveTerminal();
    this.pid = new Promise<number | undefined>((resolve) => (this.#resolvePid = resolve));
    this.#store.defer(() => this.#resolvePid(undefined));
  }

  get altScreenActive(): boolean {
    return this.#altScreenActive;
  }

  async start(): Promise<{ exit: Promise<AgentExit> }> {
    const pair = await openRelayChannel(
      (chunk) => this.#onChunk(chunk),
      (message) => this.outlets.error(message),
    );
    if (pair.ours) this.#own(pair.ours);
    let child: ChildProcess;
    try {
      child = spawnRelay(this.#options, pair.theirs);
    } catch (error) {
      return { exit: Promise.resolve(this.#neverStarted(error as Error)) };
    }
    // A spawn that failed (EMFILE, ENOENT) has no pid and no stdio; its 'error' comes on the next tick.
    if (child.pid === undefined) return { exit: new Promise((resolve) => child.once('error', (error) => resolve(this.#neverStarted(error)))) };
    const ours = pair.ours ?? this.#own(child.stdio[3] as Socket);
    if (!pair.ours) ours.on('data', (chunk: Buffer) => this.#onChunk(chunk));
    ours.on('error', () => {}); // the relay's end closed first; its exit is reported by 'close'
    // After its exit report the relay ends its side and waits for ours to close before it exits.
    ours.once('end', () => ours.end());
    this.sender.connect(ours);
    // A pipe from spawn is part of the child's 'close'; our own socket is not: the last frames
    // (the exit) are read only once it has closed too.
    const drained = pair.ours ? new Promise((resolve) => ours.once('close', resolve)) : Promise.resolve();
    return { exit: this.#exit(child, drained) };
  }

  /** The channel's end is destroyed with the run (already closed after a normal exit). */
  #own(channel: Socket): Socket {
    this.#channel = channel;
    this.#store.defer(() => channel.destroy());
    return channel;
  }

  #onChunk(chunk: Buffer): void {
    try {
      this.#decoder.push(chunk, (frame) => this.#onFrame(frame));
    } catch (error) {
      this.outlets.error(`relay: ${errorText(error)}`);
      this.#channel?.destroy();
    }
  }

  #onFrame(frame: RelayFrame): void {
    const { type, payload } = frame;
    switch (type) {
      case 'O':
      case 'I':
      case 'R':
      case 'G':
        this.outlets.frame(frame);
        break;
      case 'S':
        this.#altScreenActive = payload[0] === 1;
        this.outlets.altScreen(this.#altScreenActive);
        break;
      case 'P':
        this.#resolvePid(payload.readInt32LE(0));
        break;
      case 'E':
        this.#resolvePid(undefined);
        this.outlets.error(payload.toString());
        break;
      case 'X':
        this.#reported = { exitCode: payload.readInt32LE(0), ...(payload.readInt32LE(4) ? { signal: payload.readInt32LE(4) } : {}) };
        break;
    }
  }

  #exit(child: ChildProcess, drained: Promise<unknown>): Promise<AgentExit> {
    return new Promise<AgentExit>((resolve) => {
      child.once('error', (error) => {
        if (child.pid === undefined && !this.#store.isDisposed) resolve(this.#neverStarted(error));
        else this.outlets.error(`relay: ${error.message}`);
      });
      child.once('close', (code, signal) => {
        void drained.then(() => {
          if (!this.#store.isDisposed) resolve(this.#closed(code, signal));
        });
      });
    });
  }

  /** Nothing ran and the terminal was never touched. */
  #neverStarted(error: Error): AgentExit {
    this.outlets.error(`cannot start ${this.#options.relayPath}: ${error.message}`);
    this.#store.dispose();
    return { exitCode: 127 };
  }

  #closed(code: number | null, signal: NodeJS.Signals | null): AgentExit {
    const how = childEndText({ exitCode: code, signal });
    if (!this.#reported) {
      // The relay died without reporting (killed): put the user's terminal back ourselves, and
      // say there why the session ended, not only in the log.
      this.#terminal.restore(this.#altScreenActive);
      this.outlets.error(`the relay ended without reporting the agent's exit (${signal ?? `code ${code}`})`);
      writeStderrSync(`ccc: the session ended: its byte relay (ccc-relay) ${how}, and the agent with it (its terminal closed).\n`);
    }
    this.#store.dispose();
    const relayLost = `its byte relay (ccc-relay) ${how}`;
    return this.#reported ?? (signal ? { exitCode: 0, signal: os.constants.signals[signal], relayLost } : { exitCode: code ?? 1, relayLost });
  }
}
