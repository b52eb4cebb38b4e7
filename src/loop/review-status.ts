/**
 * Shows that a review is running without touching the agent's screen: the terminal title (an OSC
 * sequence, injected only at safe points between the agent's sequences) names the checker, the
 * iteration and the elapsed time, and ends with the verdict, its sign and what it rests on
 * (`✓ … verified by: npm test`, `⚠ … unverified`: checkers/verdict-text.ts), what the review cost
 * and what the run spent against its cap.
 *
 * Claude Code retitles the terminal as it works (a spinner title about every second) and once when
 * its turn ends (`✳ Claude Code`), which would wipe the verdict; it writes no title at all under
 * its documented `CLAUDE_CODE_DISABLE_TERMINAL_TITLE` (test/claude/terminal-title.test.ts). So the
 * supervised agent runs with it (agent-env.ts) and the title is ccc's alone: the verdict stays until
 * ccc has something newer to say (the next review, a wait, the user's next prompt: `agent working`).
 * A user who set the variable themselves keeps their choice; with claude's titles on, ccc writes a
 * fresh verdict again every REASSERT_MS for VERDICT_FRESH_MS (or until the user types or the next
 * review starts), so that the last title the terminal got is ccc's. A wait on the model's limit is
 * held the same way until the wait is over, which the title then says.
 */
import { shownVerdict } from '../checkers/verdict-text.js';
import { partialReviewDetails } from '../checkers/verification.js';
import { costText } from '../claude/usage.js';
import { inertLine } from '../pty/inert-text.js';
import type { Frame } from '../frames/frame.js';
import { userPromptOf } from '../frames/transcript-summary.js';
import type { SupervisorEvent } from './events.js';
import { spendText } from './spend-line.js';
import type { Reporter } from '../reporters/reporter.js';

/** How long a verdict keeps the title against claude's retitling. */
const VERDICT_FRESH_MS = 30_000;
/** How soon after claude's own title the verdict is back. */
const REASSERT_MS = 1000;

/** The interactive run's reporter on the terminal title. */
export interface ReviewTitle extends Reporter {
  onEvent(e: SupervisorEvent): void;
  /** The agent's transcript: a prompt the user sent after `since` means the agent is at work on it. */
  onFrame(frame: Frame): void;
  /** The user typed: with claude's titles on, claude's turn and its title are theirs again. */
  onInput(): void;
  /** No more titles (the timers end). */
  stop(): void;
  close(): Promise<void>;
}

export interface ReviewTitleOptions {
  /** Whether claude writes titles of its own (the user kept them on): ccc's are then written again while fresh. Default true. */
  claudeTitles?: boolean;
  /** When the session began (ms since the epoch): prompts of a resumed transcript, older, are not new work. */
  since?: number;
  freshMs?: number;
}

export function reviewTitleUpdater(inject: (bytes: string) => void, options: ReviewTitleOptions = {}): ReviewTitle {
  const claudeTitles = options.claudeTitles ?? true;
  const since = options.since ?? Date.now();
  let timer: NodeJS.Timeout | undefined;
  let reassert: NodeJS.Timeout | undefined;
  let started = 0;
  let label = '';
  const title = (text: string) => inject(`\x1b]0;${inertLine(text)}\x07`);
  const tick = () => title(`ccc: reviewing ${label} · ${Math.round((Date.now() - started) / 1000)}s`);
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const stopReasserting = () => {
    if (reassert) clearInterval(reassert);
    reassert = undefined;
  };
  /** The verdict's title now, and (against claude's own titles) again each REASSERT_MS while it is fresh. */
  const hold = (text: string) => {
    stopReasserting();
    title(text);
    if (!claudeTitles) return;
    const until = Date.now() + (options.freshMs ?? VERDICT_FRESH_MS);
    reassert = setInterval(() => (Date.now() >= until ? stopReasserting() : title(text)), REASSERT_MS);
    reassert.unref();
  };
  // With claude's titles off, nothing else names the session until its first prompt.
  if (!claudeTitles) title('ccc: waiting for a prompt');
  return {
    onEvent(e) {
      if (e.kind === 'iteration') label = `${e.n}/${e.max}`;
      else if (e.kind === 'checker' && e.state === 'start') {
        stopReasserting();
        label = `${label.split(' ')[0]} (${e.checker})`;
        if (!timer) {
          started = Date.now();
          timer = setInterval(tick, 1000);
          timer.unref();
        }
        tick();
      } else if (e.kind === 'verdict') {
        stopTimer();
        const spend = e.spent_usd === undefined ? '' : spendText({ ...e, spent_usd: e.spent_usd, task_spent_usd: e.task_spent_usd ?? e.spent_usd });
        const shown = shownVerdict(e.completed, e.evidence);
        const details = [shown.details, partialReviewDetails(e.review), e.usage ? costText(e.usage) : '', spend].filter(Boolean).join(', ');
        hold(`ccc: ${shown.sign} review ${e.iteration}${e.completed ? ' complete' : ': feedback sent'}${details ? ` (${details})` : ''}`);
      } else if (e.kind === 'waiting') {
        stopTimer();
        hold(`ccc: waiting on the model's limit until ${new Date(e.until).toTimeString().slice(0, 5)}`);
      } else if (e.kind === 'wait-over' && e.outcome === 'resumed') {
        // Said once, not held: the wait's title would otherwise be written again over the resumed
        // turn for the rest of its freshness, and claude's own working title is the right one next.
        stopReasserting();
        title(e.who === 'agent' ? "ccc: the model's limit is over: the agent works again" : "ccc: the model's limit is over: reviewing again");
      } else if (e.kind === 'wait-over') {
        // Given up: the wait's title must not outlive the wait; the failure that stands is held instead.
        hold(`ccc: gave up waiting on the model's limit after ${Math.round(e.waited_ms / 60_000)} min`);
      } else if (e.kind === 'wind-down') {
        stopTimer();
        hold(`ccc: winding down: ${e.message.slice(0, 70)}`);
      } else if (e.kind === 'error' || e.kind === 'stopped') {
        stopTimer();
        hold(`ccc: ${e.message.slice(0, 80)}`);
      }
    },
    onFrame(frame) {
      // claude says nothing of a new turn while its titles are off; the prompt in its transcript does.
      if (claudeTitles || timer || userPromptOf(frame) === undefined || !(Date.parse(String(frame.timestamp)) >= since)) return;
      stopReasserting();
      title('ccc: agent working');
    },
    onInput: stopReasserting,
    stop() {
      stopTimer();
      stopReasserting();
    },
    async close() {
      this.stop();
    },
  };
}
