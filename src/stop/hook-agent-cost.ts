/**
 * The agent's own spend for the standalone Stop hook, which runs in a session ccc did not start:
 * claude's running cost as the status line that `ccc hook install` put in last recorded it
 * (src/stop/status-line.ts). Chosen over pricing the transcript's per-answer usage: the status
 * line's cost is claude's own, from its own price table, for any model (ccc would need a table of
 * its own, wrong for every model it does not know). What it misses, said in docs/stop-path.md:
 * claude runs the line after the Stop hook, so a stop counts the session's cost up to the turn's
 * last answer before it (the cap binds at the next stop at worst); a resumed session's line
 * counts from the resume; `claude -p` runs no status line (its own `--max-budget-usd` binds there).
 */
import { statusLinesDir } from '../state/paths.js';
import { recordedAgentCost, sessionStatusLineFile } from './status-line.js';

/** Read when a cap is checked; 0 while the line has recorded nothing for the session. */
export function hookAgentCost(configDir: string, sessionId: string): () => number {
  const file = sessionStatusLineFile(statusLinesDir(configDir), sessionId);
  return () => recordedAgentCost(file);
}
