/**
 * Shows that a review is running without touching the agent's screen: the terminal title (an OSC
 * sequence, injected only at safe points between the agent's sequences) names the checker, the
 * iteration and the elapsed time, and ends with the verdict, what it rests on (`verified by: npm
 * test`, or `unverified`) and what the review cost. Claude Code sets its own title again
 * on its next update.
 */
import { verificationDetails } from '../checkers/verification.js';
import { dollars } from '../claude/usage.js';
import { inertLine } from '../pty/inert-text.js';
import type { SupervisorEvent } from './events.js';

export function reviewTitleUpdater(inject: (bytes: string) => void): { onEvent(e: SupervisorEvent): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  let label = '';
  const title = (text: string) => inject(`\x1b]0;${inertLine(text)}\x07`);
  const tick = () => title(`ccc: reviewing ${label} · ${Math.round((Date.now() - started) / 1000)}s`);
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    onEvent(e) {
      if (e.kind === 'iteration') label = `${e.n}/${e.max}`;
      else if (e.kind === 'checker' && e.state === 'start') {
        label = `${label.split(' ')[0]} (${e.checker})`;
        if (!timer) {
          started = Date.now();
          timer = setInterval(tick, 1000);
          timer.unref();
        }
        tick();
      } else if (e.kind === 'verdict') {
        stopTimer();
        const details = [verificationDetails(e.completed, e.evidence), e.usage ? dollars(e.usage.cost_usd) : ''].filter(Boolean).join(', ');
        title(`${e.completed ? `ccc: ✓ review ${e.iteration} complete` : `ccc: ✗ review ${e.iteration}: feedback sent`}${details ? ` (${details})` : ''}`);
      } else if (e.kind === 'error' || e.kind === 'stopped') {
        stopTimer();
        title(`ccc: ${e.message.slice(0, 80)}`);
      }
    },
    stop: stopTimer,
  };
}
