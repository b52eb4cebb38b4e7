/**
 * Env var set for every agent ccc starts: a user-installed Stop hook then leaves the decision to
 * this ccc. A module of its own because `ccc supervisor-hook` reads it on the path Claude Code
 * waits for at every stop, and importing it from the session module loaded RxJS and the logger
 * there (see bench/RESULTS.md, "Stop hook: the supervised-env leaf module").
 */
export const SUPERVISED_ENV = 'CCC_SUPERVISED';
