/**
 * The headless agent's tool calls as `tools` events, paced so that a busy agent cannot flood
 * observers, the `--json` stream or the log. The rule: a call after a quiet interval goes out at
 * once; the calls made within the next INTERVAL_MS are gathered and go out together when it
 * ends; so at most one event an interval, each listing at most TOOL_CALLS_LISTED calls and
 * counting the rest in `more`. `flush()` sends what is gathered at once (the turn ended: its
 * calls come before its review).
 */
import type { ToolCall } from '../frames/tool-calls.js';
import { event, type EventSink } from './events.js';

export const TOOL_CALLS_LISTED = 5;
const INTERVAL_MS = 1000;

export class ToolCallFeed {
  private listed: ToolCall[] = [];
  private more = 0;
  /** Set while an interval runs: calls wait for its end. */
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly emit: EventSink,
    private readonly intervalMs = INTERVAL_MS,
  ) {}

  add(calls: readonly ToolCall[]): void {
    if (calls.length === 0) return;
    for (const call of calls) {
      if (this.listed.length < TOOL_CALLS_LISTED) this.listed.push(call);
      else this.more += 1;
    }
    if (!this.timer) this.send();
  }

  /** Sends the gathered calls now and ends the interval: the next call goes out at once. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.listed.length > 0) this.emit(event({ kind: 'tools', calls: this.listed.splice(0), more: this.take() }));
  }

  private send(): void {
    this.emit(event({ kind: 'tools', calls: this.listed.splice(0), more: this.take() }));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.listed.length > 0) this.send();
    }, this.intervalMs);
    // A pending interval never keeps the process alive: the run's end flushes what is left.
    this.timer.unref();
  }

  private take(): number {
    const more = this.more;
    this.more = 0;
    return more;
  }
}
