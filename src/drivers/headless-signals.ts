/**
 * A headless run ended from outside: CI cancelling the job (SIGTERM), Ctrl-C (SIGINT), the
 * terminal or ssh session gone (SIGHUP). Node's default would end ccc on the spot, with no word
 * on stderr or in the log and `sessions/<pid>.json` left behind. Instead the session is
 * interrupted (the agent's turn and the review in progress are stopped, their process groups
 * killed), the run says why and exits 128 + the signal's number, as a shell reports it, after its
 * usual teardown. A second signal while that runs ends ccc at once.
 *
 * Behind its front (src/cli/front.cts) a signal to the job's process group (GNU `timeout` from a
 * terminal, `kill -- -PGID`, a closed terminal's SIGHUP) reaches ccc twice within milliseconds:
 * from its sender and passed on by the front. The same signal again within `echoMs` is that one
 * signal, not a second; it used to end ccc at once, with no ending written.
 */
import os from 'node:os';
import { isBehindFront } from '../process/front-link.js';

const TERMINATING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** How far apart the sender's signal and the front's copy of it can arrive, on a loaded machine. */
const FRONT_ECHO_MS = 1000;

export interface Interruptible {
  interrupt(message: string, exitCode: number): void;
}

/** From now until the returned function is called, the signals interrupt `session` instead of killing ccc. */
export function interruptOnSignals(
  session: Interruptible,
  exit: (code: number) => void = (code) => process.exit(code),
  echoMs = isBehindFront() ? FRONT_ECHO_MS : 0,
): () => void {
  let received: NodeJS.Signals | undefined;
  let receivedAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + (os.constants.signals[signal] ?? 0);
    if (received === signal && Date.now() - receivedAt < echoMs) return; // the front's copy of the same signal
    if (received) return exit(code); // asked twice: no more waiting for the teardown
    received = signal;
    receivedAt = Date.now();
    session.interrupt(`${signal} received; the agent's turn and the review in progress were stopped`, code);
  };
  for (const signal of TERMINATING_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of TERMINATING_SIGNALS) process.off(signal, onSignal);
  };
}
