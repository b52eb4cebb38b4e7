/** Signals ccc receives that belong to the agent (a `kill` of ccc, a closed terminal window). */
import type { Undo } from './byte-path.js';

export const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];

/** Passes each of `signals` on through `kill` while installed; the undo removes the handlers. */
export function forwardSignals(kill: (signal: NodeJS.Signals) => void, signals: NodeJS.Signals[] = FORWARDED_SIGNALS): Undo {
  const undos = signals.map((signal) => {
    const forward = () => kill(signal);
    process.on(signal, forward);
    return () => void process.off(signal, forward);
  });
  return () => undos.forEach((undo) => undo());
}
