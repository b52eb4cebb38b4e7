/**
 * After the agent exited on the Node proxy: reads its last output until it has been quiet for
 * `drainQuietMs`, at most `drainMaxMs` counted from when the user's terminal last caught up (while
 * it is behind, the output waits unread: that is not quiet), and never more than five times that
 * in all.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BytePathTiming } from './byte-path-rules.js';

export async function drain(lastDataAt: () => number, behind: () => boolean, timing: BytePathTiming): Promise<void> {
  const exitedAt = Date.now();
  let drainFrom = exitedAt;
  for (;;) {
    await sleep(timing.drainQuietMs / 2);
    const now = Date.now();
    if (behind()) drainFrom = now;
    else if (now - lastDataAt() >= timing.drainQuietMs || now - drainFrom >= timing.drainMaxMs) return;
    if (now - exitedAt >= 5 * timing.drainMaxMs) return;
  }
}
