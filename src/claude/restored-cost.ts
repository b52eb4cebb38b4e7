/**
 * What `total_cost_usd` of a resumed run already holds. Claude records a `cost-state` entry in a
 * session's transcript when a run ends and restores it on `--resume` (a fork of the session too),
 * so a resumed run's `total_cost_usd` is the session's earlier cost plus its own (pinned in
 * test/claude/resumed-cost.test.ts). A review's own cost is its total minus this.
 */
import fs from 'node:fs/promises';

/** The last cost-state of `sessionId` in its transcript, in USD; 0 when there is none (or no transcript). */
export async function restoredCostUsd(transcriptFile: string | undefined, sessionId: string): Promise<number> {
  if (!transcriptFile) return 0;
  let text: string;
  try {
    text = await fs.readFile(transcriptFile, 'utf8');
  } catch {
    return 0;
  }
  for (let end = text.length; end > 0; ) {
    const at = text.lastIndexOf('"cost-state"', end);
    if (at === -1) return 0;
    const start = text.lastIndexOf('\n', at) + 1;
    const stop = text.indexOf('\n', at);
    const cost = costOf(text.slice(start, stop === -1 ? undefined : stop), sessionId);
    if (cost !== undefined) return cost;
    end = start - 1;
  }
  return 0;
}

function costOf(line: string, sessionId: string): number | undefined {
  try {
    const entry = JSON.parse(line) as { type?: unknown; sessionId?: unknown; totalCostUSD?: unknown };
    const usd = entry.totalCostUSD;
    return entry.type === 'cost-state' && entry.sessionId === sessionId && typeof usd === 'number' && Number.isFinite(usd) && usd >= 0 ? usd : undefined;
  } catch {
    return undefined;
  }
}
