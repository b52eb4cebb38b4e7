/**
 * The environment a supervised agent runs with, in a leaf module: the interactive launch builds it
 * before the session object exists, so that nothing but the spawn's own needs runs before claude
 * starts (docs/design/architecture.md, "Start-up: what loads before the agent's spawn").
 */
import { SUPERVISED_ENV, withoutCccMarkers } from './supervised-env.js';

/** Claude Code's own cap on consecutive Stop-hook blocks (8 by default) would end the loop early. */
export const STOP_HOOK_BLOCK_CAP_ENV = 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP';

/** The block cap a supervised agent runs with: above `maxIterations`, never below Claude Code's own 8. */
export function supervisedBlockCap(maxIterations: number): number {
  return Math.max(8, maxIterations + 1);
}

/**
 * `env` and `extra`, marked as supervised by this process, with the block cap above `maxIterations`.
 * ccc's own markers in `env` (a reviewer's, another ccc's stop channel) are not passed on: only
 * this ccc's (supervised-env.ts).
 */
export function supervisedAgentEnv(env: NodeJS.ProcessEnv, maxIterations: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const cap = supervisedBlockCap(maxIterations);
  return { ...withoutCccMarkers(env), ...extra, [SUPERVISED_ENV]: String(process.pid), [STOP_HOOK_BLOCK_CAP_ENV]: String(cap) };
}

/** Claude Code's documented switch for its own terminal titles. */
const TERMINAL_TITLE_ENV = 'CLAUDE_CODE_DISABLE_TERMINAL_TITLE';

/**
 * The interactive agent's titles: off (`1`), so that the verdict ccc writes in the title stays
 * there (loop/review-status.ts), unless the user set the variable themselves, whose value stands.
 * `claudeTitles`: whether claude still writes its own (the value is not one claude reads as true).
 */
export function agentTitles(env: NodeJS.ProcessEnv): { extra: NodeJS.ProcessEnv; claudeTitles: boolean } {
  const theirs = env[TERMINAL_TITLE_ENV];
  if (theirs === undefined || theirs === '') return { extra: { [TERMINAL_TITLE_ENV]: '1' }, claudeTitles: false };
  return { extra: {}, claudeTitles: !['1', 'true', 'yes', 'on'].includes(theirs.trim().toLowerCase()) };
}
