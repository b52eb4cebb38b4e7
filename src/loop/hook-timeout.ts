/**
 * The `timeout` of ccc's Stop hook entries (the one injected at launch and the one `ccc hook
 * install` writes): Claude Code kills a hook that runs longer, and a killed hook lets the agent stop
 * unreviewed. It must cover the pipeline's worst case: every checker in turn running to its own
 * time limit (its `timeout_seconds`, else `supervisor.timeout_seconds`) and then its abort grace
 * (pipeline.ts), plus a margin for the rest of a stop (the hook process's start, loading the config
 * and plugins, the progress checks, the log), and then the longest wait on the model's limits
 * (`supervisor.limit_wait_minutes`): a review refused on a limit is waited out inside the stop
 * (limit-wait.ts), and a killed hook would end that wait with the agent stopped unreviewed.
 */
import { checkerTimeoutSeconds } from '../checkers/checker-timeout.js';
import { ABORT_GRACE_MS } from '../checkers/pipeline.js';
import { normalizeDeclaration } from '../checkers/rule-commands.js';
import type { CccConfig } from '../config/types.js';

export const HOOK_TIMEOUT_MARGIN_SECONDS = 60;

/** Seconds, from each checker's own time limit in pipeline order and the waiting budget on the model's limits. */
export function hookTimeoutSeconds(checkerTimeoutsSeconds: readonly number[], limitWaitMinutes = 0): number {
  const graceSeconds = Math.ceil(ABORT_GRACE_MS / 1000);
  const worstCase = checkerTimeoutsSeconds.reduce((sum, seconds) => sum + seconds + graceSeconds, 0);
  return Math.ceil(worstCase) + HOOK_TIMEOUT_MARGIN_SECONDS + limitWaitMinutes * 60;
}

/** Each configured checker's time limit, as the pipeline will run it. */
export function checkerTimeoutsSeconds(supervisor: Pick<CccConfig['supervisor'], 'checkers' | 'timeout_seconds'>): number[] {
  return supervisor.checkers.map((declaration) => checkerTimeoutSeconds(normalizeDeclaration(declaration).options, supervisor.timeout_seconds));
}

/**
 * How long the standalone hook waits for another hook's review of the same session before it lets
 * its own stop through unreviewed: what its timeout leaves once a whole review (the pipeline's worst
 * case) and half the margin are set aside, so that a review begun at the bound still ends before
 * Claude Code kills the hook.
 */
export function hookClaimWaitSeconds(checkerTimeoutsSeconds: readonly number[], limitWaitMinutes = 0): number {
  const review = hookTimeoutSeconds(checkerTimeoutsSeconds) - HOOK_TIMEOUT_MARGIN_SECONDS;
  return hookTimeoutSeconds(checkerTimeoutsSeconds, limitWaitMinutes) - review - HOOK_TIMEOUT_MARGIN_SECONDS / 2;
}
