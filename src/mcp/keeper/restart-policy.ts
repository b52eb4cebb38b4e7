/**
 * When a crashed Worker may be restarted.
 *
 * The rule: a Worker that stops is restarted unless `maxAttempts` restarts already happened within
 * the last `windowMs` (10 minutes by default); then the Keeper gives up and enters the fatal
 * state. Counting inside a sliding window rather than over the whole life of the process means a
 * long-lived server (an IDE open for a week) is not condemned by a few crashes days apart, while a
 * Worker that crashes at every start is given up on after `maxAttempts` quick restarts.
 *
 * With the defaults (5 attempts, 2 s delay) a Worker that crashes at startup is started 6 times
 * (the first start and 5 restarts) before the fatal state. An explicit repair (`self_test`) is
 * neither refused nor counted by the policy (it is a deliberate act, not a crash loop); it does
 * appear in the restart history.
 */
export interface RestartPolicy {
  /** Whether one more restart is allowed at `now` (ms since the epoch). */
  allows(now: number): boolean;
  /** Counts a restart that happened at `now`. */
  record(now: number): void;
  /** Restarts counted inside the window ending at `now`. */
  countInWindow(now: number): number;
  readonly maxAttempts: number;
  readonly windowMs: number;
}

export function createRestartPolicy(options: { maxAttempts: number; windowMs: number }): RestartPolicy {
  let times: number[] = [];
  const prune = (now: number) => {
    times = times.filter((t) => now - t < options.windowMs);
  };
  return {
    maxAttempts: options.maxAttempts,
    windowMs: options.windowMs,
    allows(now) {
      prune(now);
      return times.length < options.maxAttempts;
    },
    record(now) {
      prune(now);
      times.push(now);
    },
    countInWindow(now) {
      prune(now);
      return times.length;
    },
  };
}

/** What the Keeper says when `policy` refuses a restart after the Worker stopped for `reason`. */
export function givingUpMessage(policy: RestartPolicy, reason: string, now: number): string {
  const minutes = Math.round(policy.windowMs / 60000);
  return (
    `The ccc MCP worker keeps stopping (last: ${reason}). It was restarted ${policy.countInWindow(now)} times in the last ` +
    `${minutes} minutes, the limit (mcp.max_restart_attempts=${policy.maxAttempts}), so it is no longer restarted and its tools ` +
    'are unavailable. Call the self_test tool to try a repair, or restart the MCP server; the server log (stderr) has the details.'
  );
}
