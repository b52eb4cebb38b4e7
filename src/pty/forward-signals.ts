/** Signals ccc receives that belong to the agent (a `kill` of ccc, a closed terminal window). */
export const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];

/** Passes each of `signals` on through `kill` until `until` aborts. */
export function forwardSignals(kill: (signal: NodeJS.Signals) => void, until: AbortSignal, signals: NodeJS.Signals[] = FORWARDED_SIGNALS): void {
  for (const signal of signals) {
    const forward = () => kill(signal);
    process.on(signal, forward);
    until.addEventListener('abort', () => void process.off(signal, forward), { once: true });
  }
}
