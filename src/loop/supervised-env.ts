/**
 * The environment variables by which ccc tells the processes it starts what they are, and the
 * rule that binds each to the ccc that set it. A leaf: `ccc supervisor-hook` reads them on the
 * path Claude Code waits for at every stop, and importing them from the session module loaded
 * RxJS and the logger there (see bench/RESULTS.md, "Stop hook: the supervised-env leaf module").
 *
 * Each marker's value is the pid of the ccc that set it, and it counts only for a claude that
 * ccc started itself (process-ancestry.ts `startedBy`): a copy inherited by accident (exported in
 * the user's shell, passed down to a test suite the agent or the reviewer runs, a nested claude)
 * neither switches supervision off nor goes unnoticed.
 */

/** Set for every agent ccc starts: a user-installed Stop hook then leaves the decision to this ccc. */
export const SUPERVISED_ENV = 'CCC_SUPERVISED';

/** Set for the reviewer ccc starts: its own Stop hooks allow at once (no review of the review). */
export const REVIEW_ENV = 'CCC_SUPERVISOR_HOOK';

/** The markers a ccc sets for what it starts (and the stop channel's), never taken from the environment it was given. */
const CCC_MARKERS = [SUPERVISED_ENV, REVIEW_ENV, 'CCC_HOOK_SOCKET', 'CCC_HOOK_TOKEN', 'CCC_REVIEWER_POLICY'] as const;

/** `env` without ccc's own markers: what an agent or a reviewer starts from, before its ccc sets its own. */
export function withoutCccMarkers(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of CCC_MARKERS) delete out[name];
  return out;
}
