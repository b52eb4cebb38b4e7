/**
 * The Stop hook calls of an interactive session, in the order they come over the stop channel,
 * taken one at a time by the loop (the interactive driver's `stops()`): a call waits, its hook
 * kept alive, until the loop has taken it and answered it. Closed when the agent exits: a call
 * still waiting, and any that comes after, is answered '' at once (the stop goes through
 * unreviewed; claude is going away).
 */
import type { StopEvent } from '../stop/stop-event.js';

/** A stop the hook is waiting on: its input, a signal that aborts when the hook hangs up, and how to answer it. */
export interface HookCall {
  stop: StopEvent;
  hookGone: AbortSignal;
  answer(output: string): void;
  fail(error: unknown): void;
}

export class HookCalls {
  private readonly waiting: HookCall[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  /** The stop channel's side: this stop's hook output, once the loop has answered it. */
  call(stop: StopEvent, hookGone: AbortSignal): Promise<string> {
    if (this.closed) return Promise.resolve('');
    return new Promise<string>((answer, fail) => {
      this.waiting.push({ stop, hookGone, answer, fail });
      this.wake?.();
    });
  }

  /** The loop's side: the oldest call not yet taken, once there is one; undefined once closed. */
  async next(): Promise<HookCall | undefined> {
    while (this.waiting.length === 0 && !this.closed) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    return this.waiting.shift();
  }

  /** Takes no more calls: those still waiting are answered '' and `next()` ends. Idempotent. */
  close(): void {
    this.closed = true;
    for (const call of this.waiting.splice(0)) call.answer('');
    this.wake?.();
  }
}
