/**
 * How an interactive run ended, from what ended the agent (its own exit, a crash, a signal ccc
 * received and passed on, the byte relay dying under it) and the last stop it made. The user's
 * quit and a crash look alike to the pty, so the words say the exit code or signal as it was.
 *
 * The exit code is the agent's, 0 after `/exit` whatever the reviews said; so unless the last stop
 * was a confirmed completion the ending says that the work was not confirmed complete, in the
 * log's last line and in ccc's last line on the terminal, where a 0 would otherwise read as done.
 */
import type { AgentExit } from '../pty/byte-path.js';
import { confirmsCompletion, type RunEnding } from '../loop/run-ending.js';
import { childEndText, signalName } from '../process/child-end.js';

export interface InteractiveEndingInput {
  exit: AgentExit;
  /** The process's exit code (128 + the signal for a signalled agent). */
  exitCode: number;
  /** The terminating signal ccc received (and passed on to the agent), if any. */
  received?: NodeJS.Signals;
  /** The last stop's outcome in words (decisionText, or why it was not reviewed). */
  lastStop?: string;
}

export interface InteractiveEnding extends RunEnding {
  /** The words for the user when the work was not confirmed complete (absent after a completion). */
  unconfirmed?: string;
}

export function interactiveEnding(input: InteractiveEndingInput): InteractiveEnding {
  const { exit, received, exitCode } = input;
  const unconfirmed = confirmsCompletion(input.lastStop)
    ? undefined
    : `the work was not confirmed complete (${input.lastStop ? `last stop: ${input.lastStop}` : 'no stop was reviewed'})`;
  const after = unconfirmed ? `; ${unconfirmed}` : `; last stop: ${input.lastStop}`;
  const agent = exit.signal ? `ended by ${signalName(exit.signal)}` : childEndText({ exitCode: exit.exitCode });
  const [how, level]: [string, RunEnding['level']] = exit.relayLost
    ? [`${exit.relayLost}, and the agent with it`, 'error']
    : received
      ? [`${received} received and passed on; the agent ${agent}`, 'warn']
      : exit.signal || exit.exitCode !== 0
        ? [`the agent ${agent}`, 'error']
        : ['the agent exited with code 0 (the user quit)', 'info'];
  return { mode: 'interactive', how: how + after, exitCode, level, ...(unconfirmed ? { unconfirmed } : {}) };
}
