/**
 * The reviewer's answer text. It is the `result` frame's `result`, except when the reviewer's own
 * Stop hook ended its turn (`continue: false`, given when the session has a `/goal`:
 * reviewer-launch.ts): claude then reports an empty `result` with `terminal_reason:
 * "stop_hook_prevented"` (pinned in test/claude/goal.test.ts), and the answer is the text of the
 * last assistant message.
 */
import type { ClaudePrintResult } from '../../claude/claude-print.js';
import type { Frame } from '../../frames/frame.js';
import { assistantTextOf } from '../../frames/transcript-summary.js';

export function reviewerAnswer(): { onFrame(frame: Frame): void; text(result: ClaudePrintResult): string | undefined } {
  let last: { messageId: string | undefined; text: string } | undefined;
  return {
    onFrame(frame) {
      const assistant = assistantTextOf(frame);
      if (!assistant) return;
      // One message's blocks may arrive as frames of their own: joined, as claude joins them.
      const same = last !== undefined && assistant.messageId !== undefined && assistant.messageId === last.messageId;
      last = { messageId: assistant.messageId, text: same ? `${last!.text}\n${assistant.text}` : assistant.text };
    },
    text(result) {
      const prevented = result.resultFrame?.terminal_reason === 'stop_hook_prevented';
      return prevented && !result.resultText && last ? last.text : result.resultText;
    },
  };
}
