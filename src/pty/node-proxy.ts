/**
 * The byte path in Node, where the native relay was not built (no C compiler) or `CCC_RELAY=off`:
 * the agent in a node-pty, the user's terminal through process.stdin/stdout. The byte path is a
 * direct write of each chunk; the copies for ccc (output while watching, the tail, typed input)
 * hang off it after the write, so nothing on the side can slow the user's terminal down.
 *
 * Flow control (proxy-output.ts): when the user's terminal is behind, the pty is paused until it
 * drains. The copy is handed over synchronously, so it never misses a byte: `gap$` never emits.
 *
 * The agent runs as the job of a shell that leads its pty's session (job-shell.ts), so that it can
 * stop itself (Ctrl-Z); node-job-control.ts stops and continues the session with it.
 *
 * `runProxy` wires units that each own their part (proxy-output.ts, proxy-terminal.ts,
 * proxy-injection.ts, proxy-agent.ts) and holds them, with every listener and timer, in one
 * `DisposableStore`, disposed once the agent exited and its output was drained.
 */
import { errorText } from '../errors.js';
import { abortOnDispose, DisposableStore, listen, timeout } from '../lifetime/disposable-store.js';
import { MutableDisposable } from '../lifetime/mutable-disposable.js';
import { releaseFront } from '../process/front-link.js';
import { findExecutable } from '../process/resolve-command.js';
import { Observable, Subject } from '../rx.js';
import { spawnAgentPty, type AgentPty } from './agent-pty.js';
import type { AgentExit, BytePath, BytePathOptions } from './byte-path.js';
import { bytePathStreams, completeStreams } from './byte-path-streams.js';
import { TIMING } from './byte-path-rules.js';
import { JOB_SHELL, jobShellArgs } from './job-shell.js';
import { startNodeJobControl } from './node-job-control.js';
import { ProxyAgent } from './proxy-agent.js';
import { drain } from './proxy-drain.js';
import { PendingInjection } from './proxy-injection.js';
import { ProxyOutput } from './proxy-output.js';
import { ProxyTerminal } from './proxy-terminal.js';
import { resizes, withCurrent } from './state-streams.js';
import { processTerminal, type UserTerminal } from './terminal.js';

export function startNodeProxy(options: BytePathOptions): BytePath {
  releaseFront(); // nothing here outlives ccc to give the terminal back: the front need not wait (docs/design/byte-path.md)
  const terminal = processTerminal();
  // node-pty runs a command it cannot find as a child that prints execvp's error and exits 1; the
  // relay reports it as 127 without touching the terminal, and so does this path.
  if (!findExecutable(options.command, options.env, options.cwd)) return neverStarted(`cannot run ${options.command}: No such file or directory`, terminal);
  const pty = spawnAgentPty({ ...options, command: JOB_SHELL, args: jobShellArgs(options.command, options.args), ...terminal.size() });
  return runProxy(pty, terminal, options);
}

function runProxy(pty: AgentPty, terminal: UserTerminal, options: BytePathOptions): BytePath {
  const timing = { ...TIMING, ...options.timing };
  const streams = bytePathStreams(Subject);
  /**
   * Everything this proxy holds, released newest first once the agent exited and its output was
   * drained: the listeners, timers and job control first, then the terminal is put back, then the
   * streams complete. What fails to let go is said on `errors$`.
   */
  const store = new DisposableStore({ onError: (error) => streams.errors$.next(`node proxy teardown: ${errorText(error)}`) });
  store.defer(() => completeStreams(streams));
  const output = new ProxyOutput(pty, terminal, streams, options);
  const userTerminal = store.add(new ProxyTerminal(terminal, () => output.altScreen.active));
  // The edges that take a signal (node-pty's listeners, the terminal's, the job control) stop with the store.
  const { signal: until } = store.add(abortOnDispose());
  const agent = new ProxyAgent(pty);
  const injection = store.add(
    new PendingInjection({
      injectIdleMs: timing.injectIdleMs,
      lastDataAt: () => output.lastDataAt,
      write: (bytes) => {
        terminal.write(bytes);
        output.copy(bytes);
      },
    }),
  );
  /** The size restored after a redraw's nudge; a resize by the user makes it moot. */
  const nudge = store.add(new MutableDisposable());

  pty.onData((chunk) => {
    agent.wrote();
    output.receive(chunk);
    injection.afterOutput(chunk);
  }, until);
  terminal.onDrain(() => output.resume(), until);
  terminal.onResize(() => {
    nudge.clear();
    const { cols, rows } = terminal.size();
    pty.resize(cols, rows);
  }, until);
  store.add(
    listen(terminal.input, 'data', (chunk: Buffer) => {
      pty.write(chunk);
      streams.stdin$.next(chunk);
    }),
  );

  const settled = () =>
    drain(
      () => output.lastDataAt,
      () => output.behind,
      timing,
    );
  startNodeJobControl({
    until,
    shellPid: pty.pid,
    interactive: terminal.isTTY,
    settled,
    giveTerminalBack: () => userTerminal.giveBack(),
    takeTerminal: () => userTerminal.take(),
    redraw: () => {
      const { cols, rows } = terminal.size();
      if (cols < 2) return;
      pty.resize(cols - 1, rows);
      nudge.value = timeout(() => {
        const size = terminal.size();
        pty.resize(size.cols, size.rows);
      }, timing.redrawNudgeMs);
    },
  });

  const exit = new Promise<AgentExit>((resolve) => {
    const ended = async ({ exitCode, signal }: AgentExit) => {
      agent.exited();
      await settled();
      output.resume();
      store.dispose();
      resolve(signal ? { exitCode, signal } : { exitCode });
    };
    pty.onExit((e) => void ended(e), until);
  });

  return {
    kind: 'node',
    pid: agent.pid,
    ptyOutput$: streams.ptyOutput$,
    tail$: streams.tail$,
    gap$: streams.gap$,
    stdin$: streams.stdin$,
    typed$: streams.typed$,
    errors$: streams.errors$,
    altScreen$: withCurrent(() => output.altScreen.active, streams.altScreenChange$),
    resize$: resizes(terminal),
    exit,
    watch: (on) => {
      output.watch(on);
      return Promise.resolve();
    },
    inject: (bytes) => injection.add(bytes),
    sendToAgent: (bytes) => pty.write(bytes),
    kill: (signal) => agent.kill(signal),
    size: terminal.size,
  };
}

/** The agent could not be started: nothing ran and the terminal was never touched. */
function neverStarted(message: string, terminal: UserTerminal): BytePath {
  const streams = bytePathStreams(Subject);
  completeStreams(streams);
  return {
    kind: 'node',
    pid: Promise.resolve(undefined),
    ptyOutput$: streams.ptyOutput$,
    tail$: streams.tail$,
    gap$: streams.gap$,
    stdin$: streams.stdin$,
    typed$: streams.typed$,
    // Cold: each subscriber learns why, also one that subscribes later.
    errors$: new Observable<string>((subscriber) => {
      subscriber.next(message);
      subscriber.complete();
    }),
    altScreen$: withCurrent(() => false, streams.altScreenChange$),
    resize$: resizes(terminal),
    exit: Promise.resolve({ exitCode: 127 }),
    watch: () => Promise.resolve(),
    inject: () => {},
    sendToAgent: () => {},
    kill: () => {},
    size: terminal.size,
  };
}
