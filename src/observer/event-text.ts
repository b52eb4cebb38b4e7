/** One line of text per supervisor event, for the terminal client (the page has its own view). */
import { shownVerdict } from '../checkers/verdict-text.js';
import { reviewKindDetails } from '../checkers/verification.js';
import { describeUsage, dollars } from '../claude/usage.js';
import { spendText } from '../loop/spend-line.js';
import type { ObserverEvent } from './protocol.js';
import type { ToolCall } from '../frames/tool-calls.js';
import { inertLine } from '../pty/inert-text.js';
import { clip } from '../value-text.js';

export function eventText(event: ObserverEvent): string {
  switch (event.kind) {
    case 'start':
      return `task: ${event.task.trim().split('\n')[0]}`;
    case 'phase':
      return `phase: ${event.phase}`;
    case 'iteration':
      return `iteration ${event.n}/${event.max}${taskText(event.task)}`;
    case 'verdict': {
      const shown = shownVerdict(event.completed, event.evidence);
      // The review's cost comes last: a one-row status shows the outcome and the feedback first.
      const spend =
        event.spent_usd === undefined
          ? ''
          : ` · ${spendText({ ...event, spent_usd: event.spent_usd, task_spent_usd: event.task_spent_usd ?? event.spent_usd })}`;
      const cost = `${event.usage ? ` · review ${describeUsage(event.usage)}` : ''}${spend}${event.review ? ` · ${reviewKindDetails(event.review)}` : ''}`;
      const outcome = `${shown.sign} ${event.completed ? 'completed' : 'not completed'}${shown.details ? ` (${shown.details})` : ''}`;
      const feedback = event.feedback.trim() === '' ? '' : `: ${event.feedback.trim().replace(/\r?\n/g, '\n      ')}`;
      return `verdict of ${event.checker} (iteration ${event.iteration}): ${outcome}${feedback}${cost}${taskText(event.task)}`;
    }
    case 'checker':
      return event.state === 'start'
        ? `review by ${event.checker} started`
        : `${event.checker} ${event.state === 'done' ? 'finished' : 'failed'}${event.duration_ms === undefined ? '' : ` after ${(event.duration_ms / 1000).toFixed(1)} s`}`;
    case 'stopped':
      return `supervisor stopped (${event.reason}): ${event.message}`;
    case 'waiting':
      return `${event.message}; waiting until ${event.until.slice(11, 19)} UTC, then resuming`;
    case 'wait-over':
      return event.outcome === 'resumed'
        ? `the wait on the model's limit is over; resuming the ${event.who === 'agent' ? "agent's turn" : 'review'}`
        : `gave up waiting on the model's limit after ${spanText(event.waited_ms)}`;
    case 'tools':
      return `agent: ${toolCallsText(event.calls, event.more)}`;
    case 'wind-down':
      return `${event.message}: the agent writes down where the work stands (one last turn, not reviewed)`;
    case 'warning':
      return `warning: ${event.message}`;
    case 'error':
      return `error: ${event.message}`;
    case 'end':
      return `session ended (exit code ${event.exit_code ?? 'none'})${event.spent_usd === undefined ? '' : ` · spent ${dollars(event.spent_usd)}${event.wind_down_usd === undefined ? '' : `, ${dollars(event.wind_down_usd)} of it on the wind-down turn`}`}`;
    default:
      return `event: ${JSON.stringify(event satisfies never)}`;
  }
}

/** ` · task: fix the parser`: the first line of the task under review, clipped. */
function taskText(task: string | undefined): string {
  return task ? ` · task: ${clip(inertLine(task.trim().split('\n')[0]!), 80)}` : '';
}

/** `45 s`, `12 min`. */
function spanText(ms: number): string {
  return ms >= 90_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/** `Read src/a.ts · Bash npm test · +3 more`. */
function toolCallsText(calls: readonly ToolCall[], more: number): string {
  const listed = calls.map((call) => (call.input ? `${call.name} ${call.input}` : call.name));
  return [...listed, ...(more > 0 ? [`+${more} more`] : [])].join(' · ');
}

export type Phase = Extract<ObserverEvent, { kind: 'phase' }>['phase'];

const PHASES: Record<Phase, string> = { agent: 'agent working', review: 'reviewing', idle: 'waiting for input' };

/** The one status row of a terminal observer: what the session does now, then the last event. */
export function statusRowText(phase: Phase | undefined, last: string): string {
  return [phase === undefined ? '' : PHASES[phase], last].filter(Boolean).join(' · ');
}
