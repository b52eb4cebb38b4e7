/**
 * What `ccc supervisor-hook` prints for a decision. Blocking prints Claude Code's
 * `{"decision":"block","reason":…}`; allowing prints no decision. `systemMessage` (shown to the
 * user in the Claude Code TUI, never to the model) carries the verdict so it is visible, and a
 * `note` (the calls the permission settings refused in the turn) on a line of its own.
 */
import type { StopDecision } from '../loop/review-stop.js';

export function hookOutput(decision: StopDecision, options: { showVerdict: boolean; note?: string }): string {
  const withNote = (message: string) => (options.note ? `${message}\nccc: ${options.note}` : message);
  if (decision.action === 'block') {
    const out: Record<string, string> = { decision: 'block', reason: decision.feedback };
    if (options.showVerdict) out.systemMessage = withNote(`ccc: review ${decision.iteration} (${decision.checker}): not complete, feedback sent to the agent`);
    return JSON.stringify(out);
  }
  // A limit: the agent's last turn is the wind-down message; the stop that ends it is allowed.
  if (decision.action === 'wind-down') {
    const out: Record<string, string> = { decision: 'block', reason: decision.feedback };
    if (options.showVerdict) out.systemMessage = `ccc: ${decision.message}; the agent is asked to write down where the work stands`;
    return JSON.stringify(out);
  }
  if (!options.showVerdict) return '';
  const message = visibleAllowMessage(decision);
  return message ? JSON.stringify({ systemMessage: withNote(message) }) : '';
}

function visibleAllowMessage(decision: Extract<StopDecision, { action: 'allow' }>): string | undefined {
  switch (decision.reason) {
    case 'completed':
      return `ccc: review ${decision.iteration ?? ''} (${decision.checker ?? 'checker'}): complete`.replace('  ', ' ');
    case 'limit':
    case 'no-progress':
    case 'permission-denied':
    case 'cost-cap':
    case 'checker-failed':
      return `ccc: stopped supervising: ${decision.message}`;
    case 'goal':
      return `ccc: ${decision.message}`;
    case 'cancelled':
      return `ccc: review ${decision.iteration ?? ''} cancelled; no verdict applied`.replace('  ', ' ');
    default:
      return undefined;
  }
}
