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
 * need: docs/design/architecture.md, "Start-up"); stream frames that arrive before the caller could subscribe are held and
 * delivered, in order, right after `startNativeRelay` resolves.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import tty from 'node:tty';
import type { Socket } from 'node:net';
import type { Subject } from '../rx.js';
import type { AgentExit, BytePath, BytePathOptions } from './byte-path.js';
import { TIMING } from './byte-path-rules.js';
import { encodeRelayFrame, RelayFrameDecoder, type RelayFrame } from './relay-frames.js';
import { onStdoutResize, stdoutSize, writeResetSync } from './terminal.js';
import { openRelayChannel } from './relay-channel.js';
import { findNativeHelper } from '../native/native-helpers.js';
import { frontFd, releaseFront } from '../process/front-link.js';
import { errorText } from '../errors.js';

/** The relay's fd for the front's socket (`--hold-fd`). */
const HOLD_FD = 4;

export interface NativeRelayOptions extends BytePathOptions {
  relayPath: string;
  /** Used when the user's stdin is not a terminal (the relay asks the terminal otherwise); stdout's size by default. */
  cols?: number;
  rows?: number;
}

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

interface RelayStreams {
  ptyOutput$: Subject<Buffer>;
  stdin$: Subject<Buffer>;
  gap$: Subject<number>;
  tail$: Subject<Buffer>;
  errors$: Subject<string>;
  altScreenChange$: Subject<boolean>;
}

export async function startNativeRelay(options: NativeRelayOptions): Promise<BytePath> {
  let streams: RelayStreams | undefined;
  /** Stream items (frames 'O', 'I', 'R', 'G', errors) held until the caller has subscribed; undefined after. */
  let held: Array<(s: RelayStreams) => void> | undefined = [];
  let finished = false;
  const tailWaiters: Array<() => void> = [];
  /** Known before the streams exist: a killed relay's restore needs it at any time. */
  let altScreenActive = false;
  // process.stdin is never touched: creating its stream would compete with the relay for the keys.
  const savedMode = tty.isatty(0) ? saveTerminalMode() : undefined;
  const env = { ...options.env, TERM: options.env.TERM ?? 'xterm-256color' };
  const timing = { ...TIMING, ...options.timing };
  // The front's socket (src/cli/front.ts) goes to the relay, which closes it once the terminal is back.
  const front = frontFd();
  const args = [
    ...(options.watching ? ['--tee-output'] : []),
    ...(options.tailBytes ? ['--tail-bytes', String(options.tailBytes)] : []),
    ...['--cols', String(options.cols ?? stdoutSize().cols), '--rows', String(options.rows ?? stdoutSize().rows)],
    ...['--inject-idle-ms', String(timing.injectIdleMs), '--drain-quiet-ms', String(timing.drainQuietMs), '--drain-max-ms', String(timing.drainMaxMs)],
    ...['--redraw-nudge-ms', String(timing.redrawNudgeMs)],
    ...(front === undefined ? [] : ['--hold-fd', String(HOLD_FD)]),
    ...['--', options.command, ...options.args],
  ];
  /** Undefined until the relay runs; what is sent before waits in `early`. */
  let channel: Socket | undefined;
  const early: Buffer[] = [];
  const decoder = new RelayFrameDecoder();
  let resolvePid!: (pid: number | undefined) => void;
  const pid = new Promise<number | undefined>((resolve) => (resolvePid = resolve));
  let reported: AgentExit | undefined;
  let settled = false;

  const onStreamFrame = ({ type, payload }: RelayFrame, s: RelayStreams) => {
    switch (type) {
      case 'O':
        s.ptyOutput$.next(payload); // a view: see `ptyOutput$`
        break;
      case 'I':
        s.stdin$.next(Buffer.from(payload));
        break;
      case 'R':
        s.tail$.next(Buffer.from(payload));
        for (const resolve of tailWaiters.splice(0)) resolve();
        break;
      case 'G':
        s.gap$.next(Number(payload.readBigUInt64LE(0)));
        break;
    }
  };
  const toStreams = (deliver: (s: RelayStreams) => void) => {
    if (held) held.push(deliver);
    else if (streams) deliver(streams);
  };
  const reportError = (message: string) => toStreams((s) => s.errors$.next(message));
  const onFrame = (frame: RelayFrame) => {
    const { type, payload } = frame;
    switch (type) {
      case 'O':
      case 'I':
      case 'R':
      case 'G':
        if (held) {
          // A held frame keeps a copy: the decoder reuses its buffer.
          const kept = { type, payload: Buffer.from(payload) };
          held.push((s) => onStreamFrame(kept, s));
        } else if (streams) onStreamFrame(frame, streams);
        break;
      case 'S':
        altScreenActive = payload[0] === 1;
        streams?.altScreenChange$.next(altScreenActive);
        break;
      case 'P':
        resolvePid(payload.readInt32LE(0));
        break;
      case 'E':
        resolvePid(undefined);
        reportError(payload.toString());
        break;
      case 'X':
        reported = { exitCode: payload.readInt32LE(0), ...(payload.readInt32LE(4) ? { signal: payload.readInt32LE(4) } : {}) };
        break;
    }
  };
  const onChunk = (chunk: Buffer) => {
    try {
      decoder.push(chunk, onFrame);
    } catch (error) {
      reportError(`relay: ${errorText(error)}`);
      channel?.destroy();
    }
  };

  const send = (type: string, payload: Buffer) => {
    if (!channel) {
      if (!settled) early.push(encodeRelayFrame(type, payload));
    } else if (!channel.destroyed && channel.writable) channel.write(encodeRelayFrame(type, payload));
  };

  const complete = (s: RelayStreams) => {
    s.ptyOutput$.complete();
    s.stdin$.complete();
    s.gap$.complete();
    s.tail$.complete();
    s.errors$.complete();
    s.altScreenChange$.complete();
  };
  const finish = () => {
    finished = true;
    for (const resolve of tailWaiters.splice(0)) resolve();
    if (streams && !held) complete(streams); // else: once the held frames are delivered
  };
  /** Settles once the relay's spawn was tried: its exit, wrapped so that awaiting the attempt does not wait for it. */
  const attempt = openRelayChannel(onChunk, reportError).then((pair): { exit: Promise<AgentExit> } => {
    let child: ChildProcess;
    try {
      const stdio = ['inherit', 'inherit', 'inherit', pair.theirs, ...(front === undefined ? [] : [front])] as const;
      child = spawn(options.relayPath, args, { cwd: options.cwd, env, stdio: [...stdio] });
    } catch (error) {
      return { exit: Promise.resolve(neverStarted(error as Error, pair)) };
    } finally {
      if (pair.theirs !== 'pipe') pair.theirs.destroy(); // the relay has its own copy; its exit must end the stream
      releaseFront();
    }
    const ours = pair.ours ?? (child.stdio[3] as Socket);
    if (!pair.ours) ours.on('data', onChunk);
    ours.on('error', () => {}); // the relay's end closed first; its exit is reported by 'close'
    channel = ours;
    for (const frame of early.splice(0)) ours.write(frame);
    // A pipe from spawn is part of the child's 'close'; our own socket is not: the last frames
    // (the exit) are read only once it has closed too.
    const drained = pair.ours ? new Promise((resolve) => ours.once('close', resolve)) : Promise.resolve();
    return { exit: relayExit(child, drained) };
  });
  const exit = attempt.then((tried) => tried.exit);

  /** Nothing ran and the terminal was never touched. */
  function neverStarted(error: Error, pair: { ours: Socket | undefined }): AgentExit {
    reportError(`cannot start ${options.relayPath}: ${error.message}`);
    pair.ours?.destroy();
    settled = true;
    resolvePid(undefined);
    finish();
    return { exitCode: 127 };
  }

  function relayExit(child: ChildProcess, drained: Promise<unknown>): Promise<AgentExit> {
    return new Promise<AgentExit>((resolve) => {
      child.once('error', (error) => {
        if (child.pid === undefined && !settled) resolve(neverStarted(error, { ours: channel }));
        else reportError(`relay: ${error.message}`);
      });
      child.once(
        'close',
        (code, signal) =>
          void drained.then(() => {
            if (settled) return;
            settled = true;
            resolvePid(undefined);
            const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
            if (!reported) {
              // The relay died without reporting (killed): put the user's terminal back ourselves, and
              // say there why the session ended, not only in the log.
              if (savedMode) restoreTerminalMode(savedMode);
              if (tty.isatty(1)) writeResetSync(1, altScreenActive);
              reportError(`the relay ended without reporting the agent's exit (${signal ?? `code ${code}`})`);
              writeStderrSync(`ccc: the session ended: its byte relay (ccc-relay) ${how}, and the agent with it (its terminal closed).\n`);
            }
            finish();
            const relayLost = `its byte relay (ccc-relay) ${how}`;
            resolve(reported ?? (signal ? { exitCode: 0, signal: os.constants.signals[signal], relayLost } : { exitCode: code ?? 1, relayLost }));
          }),
      );
    });
  }

  // A channel that could not be opened rejects `exit` too; the caller learns of it there.
  await attempt.catch(() => {});
  const [{ Subject }, { resizes, withCurrent }] = await Promise.all([import('../rx.js'), import('./state-streams.js')]);
  const ready: RelayStreams = {
    ptyOutput$: new Subject<Buffer>(),
    stdin$: new Subject<Buffer>(),
    gap$: new Subject<number>(),
    tail$: new Subject<Buffer>(),
    errors$: new Subject<string>(),
    altScreenChange$: new Subject<boolean>(),
  };
  streams = ready;
  // The exit is reported after everything before it: held items delivered, streams completed (as on the Node path).
  const completed = new Promise<void>((resolve) => ready.errors$.subscribe({ complete: resolve }));
  // The caller subscribes when this function's promise resolves; the held items follow after that.
  setImmediate(() => {
    for (const deliver of held?.splice(0) ?? []) deliver(ready);
    held = undefined;
    if (finished) complete(ready);
  });
  return {
    kind: 'relay',
    ptyOutput$: ready.ptyOutput$,
    stdin$: ready.stdin$,
    gap$: ready.gap$,
    tail$: ready.tail$,
    errors$: ready.errors$,
    altScreen$: withCurrent(() => altScreenActive, ready.altScreenChange$),
    // The relay follows the terminal's size itself (SIGWINCH); ccc only reads it.
    resize$: resizes({ size: stdoutSize, onResize: onStdoutResize }),
    exit: exit.then(async (result) => {
      await completed;
      return result;
    }),
    pid,
    inject: (bytes) => send('T', Buffer.from(bytes)),
    sendToAgent: (bytes) => send('W', bytes),
    watch: (on) => {
      if (settled || channel?.destroyed) return Promise.resolve();
      send('O', Buffer.from([on ? 1 : 0]));
      return on ? new Promise<void>((resolve) => tailWaiters.push(resolve)) : Promise.resolve();
    },
    kill: (signal) => {
      const payload = Buffer.alloc(4);
      payload.writeInt32LE(os.constants.signals[signal]);
      send('K', payload);
    },
    size: stdoutSize,
  };
}

function writeStderrSync(text: string): void {
  try {
    fs.writeSync(2, text);
  } catch {
    // stderr is gone; the log has it
  }
}

/** `stty -g` of the user's terminal, to restore it if the relay is killed before it can. */
function saveTerminalMode(): string | undefined {
  const saved = spawnSync('stty', ['-g'], { stdio: ['inherit', 'pipe', 'ignore'], timeout: 2000, encoding: 'utf8' });
  return saved.status === 0 ? saved.stdout.trim() : undefined;
}

function restoreTerminalMode(mode: string): void {
  spawnSync('stty', [mode], { stdio: ['inherit', 'ignore', 'ignore'], timeout: 2000 });
}
