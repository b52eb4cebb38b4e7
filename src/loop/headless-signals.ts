/**
 * A headless run ended from outside: CI cancelling the job (SIGTERM), Ctrl-C (SIGINT), the
 * terminal or ssh session gone (SIGHUP). Node's default would end ccc on the spot, with no word
 * on stderr or in the log and `sessions/<pid>.json` left behind. Instead the session is
 * interrupted (the agent's turn and the review in progress are stopped, their process groups
 * killed), the run says why and exits 128 + the signal's number, as a shell reports it, after its
 * usual teardown. A second signal while that runs ends ccc at once.
 */
import os from 'node:os';

const TERMINATING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

export interface Interruptible {
  interrupt(message: string, exitCode: number): void;
}

/** From now until the returned function is called, the signals interrupt `session` instead of killing ccc. */
export function interruptOnSignals(session: Interruptible, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + (os.constants.signals[signal] ?? 0);
    if (received) return exit(code); // asked twice: no more waiting for the teardown
    received = signal;
    session.interrupt(`${signal} received; the agent's turn and the review in progress were stopped`, code);
  };
  for (const signal of TERMINATING_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of TERMINATING_SIGNALS) process.off(signal, onSignal);
  };
}
