/**
 * Tool calls claude refused because the user's permission settings did not allow them. In print
 * mode nobody can approve a call, so without `--allowedTools` or a permission mode every edit is
 * refused: the result frame lists those calls in `permission_denials` (docs/claude-facts.md).
 * Unnamed, that run looks like an agent making no progress.
 */
import type { Frame } from '../frames/frame.js';

/** The distinct tool names of a result frame's `permission_denials`, in order. */
export function deniedTools(frame: Frame): string[] {
  if (frame.type !== 'result' || !Array.isArray(frame.permission_denials)) return [];
  const names = frame.permission_denials.map((d: unknown) => (d && typeof d === 'object' ? (d as { tool_name?: unknown }).tool_name : undefined));
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n.length > 0))];
}

export function deniedToolsMessage(tools: readonly string[]): string {
  return (
    `claude refused the agent's ${tools.join(', ')} calls: the permission settings do not allow them and nobody can approve a call headless. ` +
    'Grant them after `--`: `-- --allowedTools "Edit Write Bash(npm test)"` or `-- --permission-mode acceptEdits`'
  );
}

/** Said to the agent with the feedback: the refusal was the permission settings, not the reviewer. */
export function deniedToolsNote(tools: readonly string[]): string {
  return (
    `Note: your ${tools.join(', ')} calls were denied by the user's permission settings (nobody can approve them in this run). ` +
    'Do the work another way that is allowed, or say plainly that you cannot do it without that permission.'
  );
}

/**
 * After this many agent turns in a row with denied calls, each answered "not complete", the run
 * stops with reason `permission-denied`: the agent cannot do the work without the grant, and more
 * rounds would only pay for the same refusal (the no-progress breaker would say "no progress").
 */
export const DENIED_TURNS_LIMIT = 2;

export function deniedStopMessage(tools: readonly string[], turns: number): string {
  return `the agent's ${tools.join(', ')} calls were denied in ${turns} turns in a row, so it cannot finish the task; ${deniedToolsMessage(tools).replace(/^claude refused[^:]*: /, '')}`;
}
