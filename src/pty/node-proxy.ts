/**
 * The byte path in Node, where the native relay was not built (no C compiler) or `CCC_RELAY=off`:
 * the agent in a node-pty, the user's terminal through process.stdin/stdout. The byte path is a
 * direct write of each chunk; the copies for ccc (output while watching, the tail, typed input)
 * hang off it after the write, so nothing on the side can slow the user's terminal down.
 *
 * Flow control: when the user's terminal is behind, the pty is paused until it drains, so the
 * agent feels the same backpressure it would in a direct terminal and memory stays bounded.
 * The copy is handed over synchronously, so it never misses a byte: `gap$` never emits.
 *
 * The agent runs as the job of a shell that leads its pty's session (job-shell.ts), so that it can
 * stop itself (Ctrl-Z); node-job-control.ts stops and continues the session with it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import tty from 'node:tty';
import { ByteRing } from './byte-ring.js';
import { releaseFront } from '../process/front-link.js';
import { findExecutable } from '../process/resolve-command.js';
import { Observable, Subject } from '../rx.js';
import { spawnAgentPty, type AgentPty } from './agent-pty.js';
import type { AgentExit, BytePath, BytePathOptions } from './byte-path.js';
import { ALT_SCREEN_REENTER, TIMING, type BytePathTiming } from './byte-path-rules.js';
import { JOB_SHELL, jobShellArgs } from './job-shell.js';
import { startNodeJobControl } from './node-job-control.js';
import { readProcessState } from './process-state.js';
import { resizes, withCurrent } from './state-streams.js';
import { AltScreenTracker, SequenceTracker } from './terminal-modes.js';
import { processTerminal, writeResetSync, type UserTerminal } from './terminal.js';

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
  const ptyOutput$ = new Subject<Buffer>();
  const stdin$ = new Subject<Buffer>();
  const tail$ = new Subject<Buffer>();
  const gap$ = new Subject<number>();
  const errors$ = new Subject<string>();
  const altScreen = new AltScreenTracker();
  const altScreenChange$ = new Subject<boolean>();
  const tail = new ByteRing(options.tailBytes ?? 0);
  /** Aborted once the agent exited and the terminal was put back: every listener here goes. */
  const running = new AbortController();
  const until = running.signal;
  let watching = options.watching ?? false;
  const sequences = new SequenceTracker();
  let pendingInjection = '';
  let lastDataAt = Date.now();
  let paused = false;

  terminal.enterRaw();
  let restored = false;
  /** The alternate screen was left for the user's shell while the job is stopped. */
  let altLeft = false;
  /** Also on the way out of a ccc that ends before the agent (an uncaught error, process.exit). */
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    terminal.leaveRaw();
    if (terminal.isTTY && tty.isatty(1)) writeResetSync(1, altScreen.active && !altLeft);
  };
  process.once('exit', restoreTerminal);
  until.addEventListener('abort', () => void process.off('exit', restoreTerminal), { once: true });

  /** What the terminal got goes to the copy while watching, and always into the tail. */
  const copy = (bytes: Buffer) => {
    tail.write(bytes);
    if (watching) ptyOutput$.next(bytes);
  };
  const writeInjection = () => {
    const bytes = Buffer.from(pendingInjection);
    pendingInjection = '';
    terminal.write(bytes);
    copy(bytes);
  };
  const flushInjection = () => {
    if (pendingInjection && sequences.atBoundary) writeInjection();
  };

  // The agent is the job shell's foreground job: its pid is the pty's foreground process group once it writes.
  let agentPid: number | undefined;
  let resolvePid!: (pid: number) => void;
  const pid = new Promise<number>((resolve) => (resolvePid = resolve));
  const findAgent = () => {
    const foreground = agentPid ?? readProcessState(pty.pid)?.tpgid;
    if (foreground && foreground > 0 && foreground !== pty.pid) agentPid = foreground;
    return agentPid;
  };

  pty.onData((chunk) => {
    if (!agentPid) resolvePid(findAgent() ?? pty.pid);
    lastDataAt = Date.now();
    if (!terminal.write(chunk) && !paused) {
      paused = true;
      pty.pause();
    }
    sequences.feed(chunk);
    const wasAlt = altScreen.active;
    altScreen.observe(chunk);
    if (altScreen.active !== wasAlt) altScreenChange$.next(altScreen.active);
    copy(chunk);
    if (pendingInjection) flushInjection();
  }, until);
  terminal.onDrain(() => {
    if (paused) {
      paused = false;
      pty.resume();
    }
  }, until);
  terminal.onResize(() => {
    clearTimeout(nudge);
    const { cols, rows } = terminal.size();
    pty.resize(cols, rows);
  }, until);

  let nudge: NodeJS.Timeout | undefined;
  until.addEventListener('abort', () => clearTimeout(nudge), { once: true });
  startNodeJobControl({
    until,
    shellPid: pty.pid,
    interactive: terminal.isTTY,
    settled: () =>
      drain(
        () => lastDataAt,
        () => paused,
        timing,
      ),
    giveTerminalBack: () => {
      terminal.leaveRaw();
      if (!terminal.isTTY || !tty.isatty(1)) return;
      writeResetSync(1, altScreen.active);
      altLeft = altScreen.active;
    },
    takeTerminal: () => {
      // Off first: raw mode set again while libuv thinks it is on would not be written.
      terminal.leaveRaw();
      terminal.enterRaw();
      if (altLeft) terminal.write(ALT_SCREEN_REENTER);
      altLeft = false;
    },
    redraw: () => {
      const { cols, rows } = terminal.size();
      if (cols < 2) return;
      pty.resize(cols - 1, rows);
      clearTimeout(nudge);
      nudge = setTimeout(() => {
        const size = terminal.size();
        pty.resize(size.cols, size.rows);
      }, timing.redrawNudgeMs);
    },
  });

  const onInput = (chunk: Buffer) => {
    pty.write(chunk);
    stdin$.next(chunk);
  };
  terminal.input.on('data', onInput);
  until.addEventListener('abort', () => void terminal.input.off('data', onInput), { once: true });

  // An injection waiting for a safe point is written once the agent has been quiet long enough.
  const injectTimer = setInterval(
    () => {
      if (pendingInjection && Date.now() - lastDataAt >= timing.injectIdleMs) writeInjection();
    },
    Math.max(10, timing.injectIdleMs / 2),
  );
  injectTimer.unref();
  until.addEventListener('abort', () => clearInterval(injectTimer), { once: true });

  const exit = new Promise<AgentExit>((resolve) => {
    const ended = async ({ exitCode, signal }: AgentExit) => {
      resolvePid(agentPid ?? pty.pid);
      await drain(
        () => lastDataAt,
        () => paused,
        timing,
      );
      if (paused) pty.resume();
      running.abort();
      restoreTerminal();
      for (const s of [ptyOutput$, stdin$, tail$, gap$, errors$, altScreenChange$]) s.complete();
      resolve(signal ? { exitCode, signal } : { exitCode });
    };
    pty.onExit((e) => void ended(e), until);
  });

  return {
    kind: 'node',
    pid,
    ptyOutput$,
    tail$,
    gap$,
    stdin$,
    errors$,
    altScreen$: withCurrent(() => altScreen.active, altScreenChange$),
    resize$: resizes(terminal),
    exit,
    watch: (on) => {
      if (on && !watching) tail$.next(tail.contents());
      watching = on;
      return Promise.resolve();
    },
    inject: (bytes) => {
      pendingInjection += bytes;
      flushInjection();
    },
    sendToAgent: (bytes) => pty.write(bytes),
    kill: (signal) => {
      const agent = findAgent();
      if (agent === undefined) pty.kill(signal);
      else {
        try {
          process.kill(agent, signal);
        } catch {
          // already gone
        }
      }
    },
    size: terminal.size,
  };
}

/** The agent could not be started: nothing ran and the terminal was never touched. */
function neverStarted(message: string, terminal: UserTerminal): BytePath {
  const ended = <T>() => {
    const subject = new Subject<T>();
    subject.complete();
    return subject;
  };
  return {
    kind: 'node',
    pid: Promise.resolve(undefined),
    ptyOutput$: ended(),
    tail$: ended(),
    gap$: ended(),
    stdin$: ended(),
    // Cold: each subscriber learns why, also one that subscribes later.
    errors$: new Observable<string>((subscriber) => {
      subscriber.next(message);
      subscriber.complete();
    }),
    altScreen$: withCurrent(() => false, ended()),
    resize$: resizes(terminal),
    exit: Promise.resolve({ exitCode: 127 }),
    watch: () => Promise.resolve(),
    inject: () => {},
    sendToAgent: () => {},
    kill: () => {},
    size: terminal.size,
  };
}

/**
 * After the agent exited: reads its last output until it has been quiet for `drainQuietMs`, at most
 * `drainMaxMs` counted from when the user's terminal last caught up (while it is behind, the
 * output waits unread: that is not quiet), and never more than five times that in all.
 */
async function drain(lastDataAt: () => number, behind: () => boolean, timing: BytePathTiming): Promise<void> {
  const exitedAt = Date.now();
  let drainFrom = exitedAt;
  for (;;) {
    await sleep(timing.drainQuietMs / 2);
    const now = Date.now();
    if (behind()) drainFrom = now;
    else if (now - lastDataAt() >= timing.drainQuietMs || now - drainFrom >= timing.drainMaxMs) return;
    if (now - exitedAt >= 5 * timing.drainMaxMs) return;
  }
}
