/**
 * What `ccc supervisor-hook` prints for a decision. Blocking prints Claude Code's
 * `{"decision":"block","reason":…}`; allowing prints no decision. `systemMessage` (shown to the
 * user in the Claude Code TUI as `Stop says: …` and kept in the transcript, never sent to the model)
 * carries the verdict so it is visible, and a `note` (the calls the permission settings refused in
 * the turn) on a line of its own.
 */
import { inertLine } from '../pty/inert-text.js';
// A type only: the verdict as the checkers show it; nothing of theirs loads with the hook.
import type { ShownVerdict } from '../checkers/verdict-text.js';
import { blockReason, windDownReason } from '../stop/block-reason.js';
import type { StopDecision } from './review-stop.js';

export interface HookOutputOptions {
  showVerdict: boolean;
  note?: string;
  /** The reviewed verdict as the user sees it (checkers/verdict-text.ts): its sign and what it rests on. */
  shown?: Pick<ShownVerdict, 'sign' | 'details'>;
}

export function hookOutput(decision: StopDecision, options: HookOutputOptions): string {
  const withNote = (message: string) => (options.note ? `${message}\nccc: ${options.note}` : message);
  if (decision.action === 'block') {
    const out: Record<string, string> = { decision: 'block', reason: blockReason(decision.feedback) };
    if (options.showVerdict)
      out.systemMessage = withNote(verdictLine(decision.iteration, decision.checker, 'not complete, feedback sent to the agent', options.shown));
    return JSON.stringify(out);
  }
  // A limit: the agent's last turn is the wind-down message; the stop that ends it is allowed.
  if (decision.action === 'wind-down') {
    const out: Record<string, string> = { decision: 'block', reason: windDownReason(decision.feedback) };
    if (options.showVerdict) out.systemMessage = `ccc: ${decision.message}; the agent is asked to write down where the work stands`;
    return JSON.stringify(out);
  }
  if (!options.showVerdict) return '';
  const message = visibleAllowMessage(decision, options.shown);
  return message ? JSON.stringify({ systemMessage: withNote(message) }) : '';
}

/**
 * `ccc: ⚠ review 2 (claude): complete, unverified`: the sign and the evidence when the verdict is
 * known, the plain words otherwise. The evidence names the reviewer's commands, model text: inert.
 */
function verdictLine(iteration: number | undefined, checker: string | undefined, outcome: string, shown: HookOutputOptions['shown']): string {
  const details = shown?.details ? inertLine(shown.details) : '';
  const evidence = details ? (outcome === 'complete' ? `, ${details}` : ` (${details})`) : '';
  return ['ccc:', shown?.sign, `review${iteration === undefined ? '' : ` ${iteration}`}`, `(${checker ?? 'checker'}):`, `${outcome}${evidence}`]
    .filter(Boolean)
    .join(' ');
}

function visibleAllowMessage(decision: Extract<StopDecision, { action: 'allow' }>, shown: HookOutputOptions['shown']): string | undefined {
  switch (decision.reason) {
    case 'completed':
      return verdictLine(decision.iteration, decision.checker, 'complete', shown);
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
