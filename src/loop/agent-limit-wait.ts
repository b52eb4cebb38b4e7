/**
 * The agent's own turn refused on the model's limit in the TUI, waited out and resumed. claude
 * fires no Stop hook for it, only StopFailure, whose answer it ignores, and then waits for the
 * user (docs/design/claude-facts.md, "A turn refused in the TUI"). So ccc waits on the session's
 * schedule (limit-wait.ts), then types its note into the agent's pty as a user would; that turn
 * ends with a Stop and is reviewed as usual, and one refused again is waited out again until the
 * waiting budget is spent. The user typing meanwhile, at the terminal or from an observer, has
 * taken the turn over: the wait ends and nothing is typed.
 */
import { modelFailureSentence, stopFailureOf, type ModelFailure } from '../claude/api-error.js';
import type { StopEvent } from '../stop/stop-event.js';
import { event } from './events.js';
import { LIMIT_RESUME_NOTE } from './limit-resume-note.js';
import { waitOutLimit, worthWaiting, type LimitWaitDeps } from './limit-wait.js';

export interface AgentLimitWaitDeps extends LimitWaitDeps {
  /** Writes into the agent's pty as if typed (`BytePath.sendToAgent`). */
  type(text: string): void;
}

export class AgentLimitWait {
  private waiting: AbortController | undefined;

  constructor(private readonly deps: AgentLimitWaitDeps) {}

  /** claude's StopFailure: a turn refused on a limit is waited out; any other failure is said and left to the user. */
  onStopFailure(stop: StopEvent): void {
    const failure = stopFailureOf(stop.raw);
    if (!failure) return;
    const said = modelFailureSentence('agent', failure);
    if (!worthWaiting(failure.kind)) {
      this.deps.logger.warn(`the agent's turn failed: ${said}`, { session_id: stop.sessionId });
      this.deps.emit(event({ kind: 'error', message: said }));
      return;
    }
    // One wait at a time; a second refusal can only come from a turn the user started meanwhile, which ended the first.
    if (this.waiting) return;
    void this.waitAndResume(failure, said);
  }

  /** What the user typed (the terminal's replies, focus reports among them, already taken out: src/input/typed-input.ts). */
  onInput(typed: Buffer): void {
    if (this.waiting && typed.length > 0) this.waiting.abort('the user took over');
  }

  private async waitAndResume(failure: ModelFailure, said: string): Promise<void> {
    const tookOver = new AbortController();
    this.waiting = tookOver;
    try {
      const outcome = await waitOutLimit({ ...this.deps, signal: AbortSignal.any([this.deps.signal, tookOver.signal]) }, 'agent', said);
      if (outcome === 'waited') {
        // As a bracketed paste, then Enter: the note as plain text in one read is taken for a paste,
        // whose Enter is a newline, not a submit (docs/design/claude-facts.md, "A turn refused in the TUI").
        this.deps.type(`\x1b[200~${LIMIT_RESUME_NOTE}\x1b[201~\r`);
        this.deps.emit(event({ kind: 'phase', phase: 'agent' }));
      } else if (outcome === 'spent') {
        this.deps.emit(event({ kind: 'error', message: `${said}; resend your message once the limit has passed` }));
      } else if (tookOver.signal.aborted) {
        this.deps.logger.info("the user took the turn over during the wait on the model's limit; nothing is sent", { kind: failure.kind });
      }
    } finally {
      this.waiting = undefined;
    }
  }
}
