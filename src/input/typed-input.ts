/**
 * What the user typed, derived once from one input's bytes: a single `TerminalReplyFilter` for the
 * input's whole life, so a terminal reply split across two reads (`ESC [ 12 ;`, then `40R`) is
 * still a reply, never typing. What the filter holds at the end of a read (a lone ESC, an
 * unfinished sequence) is released as typed once the input has been quiet for `quietMs`: a
 * terminal sends the pieces of one reply back to back, while a person's Escape key stands alone
 * (the wait a terminal program's ESC delay makes; the input log keeps the order either way).
 *
 * The pieces of one reply can reach ccc apart: the native relay hands the input over in batches
 * (at most 200 ms old), so a reply cut by a batch's end comes in two batches up to 200 ms apart,
 * later still on a loaded machine. Hence a second, not a terminal's usual 100 ms; a held Escape
 * only reaches ccc's own readers (the log, the title, a wait on the model's limit) that much late,
 * never the agent, which had every byte at once. And the quiet is judged after ccc has read its
 * input once more (`setImmediate`: after the event loop's I/O): a stalled ccc whose timer fires
 * late does not call a reply's first half typing while its second half waits unread.
 */
import { TerminalReplyFilter } from './terminal-replies.js';

/** How long a held ESC or unfinished sequence waits for the rest of a reply before it counts as typed. */
export const QUIET_MS = 1000;

export class TypedInput {
  private readonly filter = new TerminalReplyFilter();
  private timer: NodeJS.Timeout | undefined;
  private check: NodeJS.Immediate | undefined;

  /** `typed` gets each non-empty piece of typed input, in order. */
  constructor(
    private readonly typed: (bytes: Buffer) => void,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** The next read of the input. */
  push(chunk: Buffer): void {
    this.cancel();
    this.emit(this.filter.filter(chunk));
    if (this.filter.holding) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.check = setImmediate(() => this.release()).unref();
      }, this.quietMs).unref();
    }
  }

  /** The input ended: what is held is typed. */
  end(): void {
    this.cancel();
    this.release();
  }

  private cancel(): void {
    clearTimeout(this.timer);
    clearImmediate(this.check);
    this.timer = undefined;
    this.check = undefined;
  }

  private release(): void {
    this.check = undefined;
    this.emit(this.filter.drain());
  }

  private emit(bytes: Buffer): void {
    if (bytes.length > 0) this.typed(bytes);
  }
}
