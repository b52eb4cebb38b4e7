/**
 * The wind-down: at a limit (the iteration limit, the cost cap) the agent is not cut off in the
 * middle of its work. It gets one last message asking it to stop and write down where the work
 * stands, for whoever picks it up; that turn is not reviewed (its cost is counted like any turn),
 * and then the run ends with the limit's reason. `supervisor.wind_down: false` ends at once.
 */
import { updateSessionState, type SessionStateOptions } from '../state/session-state.js';
import type { StopReason } from './events.js';

/** The limits that wind down: the ones a run left alone reaches while the work is still going on. */
const WINDS_DOWN: ReadonlySet<StopReason> = new Set<StopReason>(['limit', 'cost-cap']);

export function windsDown(reason: StopReason): boolean {
  return WINDS_DOWN.has(reason);
}

/** The agent's last message; `limit` says which limit, as the run's stop line does. */
export function windDownMessage(limit: string): string {
  return [
    `The supervised run has reached a limit (${limit}) and ends after this turn.`,
    'Do not start new work. Write down where the work stands for whoever picks it up:',
    '- what is done (and how you checked it),',
    '- what is not done yet,',
    '- the next step to take (the command to run, the file to look at).',
    'Put it in your answer; if the project keeps notes or a TODO file, update it there too. Then stop.',
  ].join('\n');
}

/** The stop line after the wind-down turn: the limit's own message, and that the agent was asked to write down where the work stands. */
export function woundDownMessage(limit: string): string {
  return `${limit}; the agent was given one last turn to write down where the work stands`;
}

/** The wind-down turn is over without a stop to end it (headless decides without one): nothing stays pending. */
export async function endWindDown(configDir: string, sessionId: string, logger: SessionStateOptions['logger']): Promise<void> {
  await updateSessionState(configDir, sessionId, ({ wind_down: _pending, ...s }) => s, { logger });
}
