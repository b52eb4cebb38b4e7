/** One line of text per supervisor event, for the terminal client (the page has its own view). */
import { verificationDetails } from '../checkers/verification.js';
import { describeUsage } from '../claude/usage.js';
import { spendText } from '../loop/cost-cap.js';
import type { ObserverEvent } from './protocol.js';

export function eventText(event: ObserverEvent): string {
  switch (event.kind) {
    case 'start':
      return `task: ${event.task.trim().split('\n')[0]}`;
    case 'phase':
      return `phase: ${event.phase}`;
    case 'iteration':
      return `iteration ${event.n}/${event.max}`;
    case 'verdict': {
      const evidence = verificationDetails(event.completed, event.evidence);
      // The review's cost comes last: a one-row status shows the outcome and the feedback first.
      const cost = `${event.usage ? ` · review ${describeUsage(event.usage)}` : ''}${event.spent_usd === undefined ? '' : ` · ${spendText({ ...event, spent_usd: event.spent_usd, task_spent_usd: event.task_spent_usd ?? event.spent_usd })}`}`;
      const outcome = `${event.completed ? 'completed' : 'not completed'}${evidence ? ` (${evidence})` : ''}`;
      const feedback = event.feedback.trim() === '' ? '' : `: ${event.feedback.trim().replace(/\r?\n/g, '\n      ')}`;
      return `verdict of ${event.checker} (iteration ${event.iteration}): ${outcome}${feedback}${cost}`;
    }
    case 'checker':
      return event.state === 'start'
        ? `review by ${event.checker} started`
        : `${event.checker} ${event.state === 'done' ? 'finished' : 'failed'}${event.duration_ms === undefined ? '' : ` after ${(event.duration_ms / 1000).toFixed(1)} s`}`;
    case 'stopped':
      return `supervisor stopped (${event.reason}): ${event.message}`;
    case 'waiting':
      return `${event.message}; waiting until ${event.until.slice(11, 19)} UTC, then resuming`;
    case 'wind-down':
      return `${event.message}: the agent writes down where the work stands (one last turn, not reviewed)`;
    case 'error':
      return `error: ${event.message}`;
    case 'end':
      return `session ended (exit code ${event.exit_code ?? 'none'})`;
    default:
      return `event: ${JSON.stringify(event satisfies never)}`;
  }
}

export type Phase = Extract<ObserverEvent, { kind: 'phase' }>['phase'];

const PHASES: Record<Phase, string> = { agent: 'agent working', review: 'reviewing', idle: 'waiting for input' };

/** The one status row of a terminal observer: what the session does now, then the last event. */
export function statusRowText(phase: Phase | undefined, last: string): string {
  return [phase === undefined ? '' : PHASES[phase], last].filter(Boolean).join(' · ');
}
