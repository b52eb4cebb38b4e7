/**
 * Job control on the Node byte path (the native relay has its own, in C). The agent is the one
 * job of a shell that leads its pty's session (job-shell.ts); when the agent stops itself the shell
 * stops too, and ccc sees it on SIGCHLD. ccc then lets the agent's last output reach the terminal,
 * gives the terminal back as a shell expects it, and stops its own process group with SIGTSTP, so
 * the user's shell shows the job stopped. A SIGTSTP to ccc does the same, the agent stopped first.
 * On SIGCONT in the foreground (`fg`; also after a SIGSTOP from outside, which cannot be caught and
 * stops this byte path with ccc) the terminal goes raw again, the shell brings the agent back and a
 * size nudge makes it redraw. Continued in the background (`bg`) ccc touches nothing and stops again
 * with SIGTTOU, as a TUI there would. Without job control the agent is continued at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { canStopJob, isJob, readProcessState, type ReadProcessState } from './process-state.js';

export interface JobControlOptions {
  /** The job shell leading the agent's pty session. */
  shellPid: number;
  /** Resolves once the agent's last output reached the user's terminal. */
  settled(): Promise<void>;
  /** The terminal as the user's shell had it (cooked, the alternate screen left, modes reset). */
  giveTerminalBack(): void;
  /** Raw again, the alternate screen entered again if it was left. */
  takeTerminal(): void;
  /** Makes the agent redraw (a size nudge). */
  redraw(): void;
  /** The user's terminal is a terminal: a SIGTSTP to ccc stops the session (else its default stops ccc alone). */
  interactive: boolean;
  readState?: ReadProcessState;
  signal?: (pid: number, signal: NodeJS.Signals) => void;
  stopSelf?: (signal: NodeJS.Signals) => void;
  /** Job control ends when this aborts (the agent exited). */
  until: AbortSignal;
}

const SHELL_STOP_WAIT_MS = 2000;

export function startNodeJobControl(o: JobControlOptions): void {
  const readState = o.readState ?? readProcessState;
  const signal = o.signal ?? safeKill;
  /** ccc's process group, this process in it: the user's shell sees the job stop. */
  const stopSelf = o.stopSelf ?? ((sig: NodeJS.Signals) => process.kill(0, sig));
  /** From the first sign of a stop until the job continued: later signs are the same stop. */
  let stopping = false;
  const shellStopped = () => readState(o.shellPid)?.state === 'T';
  const resumeAgent = () => {
    signal(o.shellPid, 'SIGCONT');
    o.redraw();
  };

  const stop = async (why: 'agent' | 'asked') => {
    stopping = true;
    if (!canStopJob(readState(process.pid))) {
      // Nobody could bring the job back: an agent that stopped itself goes on at once.
      if (why === 'agent') resumeAgent();
      stopping = false;
      return;
    }
    if (why === 'asked') {
      const agentGroup = readState(o.shellPid)?.tpgid;
      if (agentGroup && agentGroup > 0 && agentGroup !== o.shellPid) signal(-agentGroup, 'SIGTSTP');
      for (const until = Date.now() + SHELL_STOP_WAIT_MS; !shellStopped() && Date.now() < until;) await sleep(10);
    }
    await o.settled();
    o.giveTerminalBack();
    // Our SIGTSTP listener would catch our own stop: the default action while it is sent.
    if (o.interactive) process.off('SIGTSTP', onTstp);
    stopSelf('SIGTSTP');
    if (o.interactive) process.on('SIGTSTP', onTstp);
  };
  const onChild = () => {
    if (!stopping && shellStopped()) void stop('agent');
  };
  const onTstp = () => {
    if (!stopping) void stop('asked');
  };
  const onCont = () => {
    const self = readState(process.pid);
    if (self && self.tpgid > 0 && self.tpgid !== self.pgrp) {
      // In the background: the terminal is the shell's. Stop again, unless that cannot take.
      if (isJob(self)) stopSelf('SIGTTOU');
      return;
    }
    stopping = false;
    o.takeTerminal();
    resumeAgent();
  };

  process.on('SIGCHLD', onChild);
  process.on('SIGCONT', onCont);
  if (o.interactive) process.on('SIGTSTP', onTstp);
  o.until.addEventListener(
    'abort',
    () => {
      process.off('SIGCHLD', onChild);
      process.off('SIGCONT', onCont);
      process.off('SIGTSTP', onTstp);
    },
    { once: true },
  );
}

function safeKill(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone
  }
}
