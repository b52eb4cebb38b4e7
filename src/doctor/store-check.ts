/**
 * The store of `ccc mcp`, read without opening it for writing: the doctor creates nothing there.
 */
import fs from 'node:fs';
import { readMcpStore, sqliteStorePath, storePath } from '../mcp/storage/mcp-store.js';
import type { DoctorCheck } from './doctor-check.js';
import { errorText } from '../errors.js';
import type { Place } from './session-checks.js';

export function storeCheck(place: Place): DoctorCheck {
  const base = { id: 'mcp-store', title: 'MCP store', needed: false } as const;
  const file = storePath(place.configDir);
  if (!fs.existsSync(file)) {
    const earlier = sqliteStorePath(place.configDir);
    const detail = fs.existsSync(earlier)
      ? `${earlier} from an earlier version; the next \`ccc mcp\` imports it into ${file}`
      : `${file}, not created yet: \`ccc mcp\` creates it`;
    return { ...base, status: 'note', detail };
  }
  try {
    const { feedback, restarts, badLines } = readMcpStore(place.configDir);
    const counts = `${feedback.length} question(s), ${restarts.length} restart(s)`;
    if (badLines.length === 0) return { ...base, status: 'ok', detail: `${file}: ${counts}` };
    return {
      ...base,
      status: 'missing',
      detail: `${file}: ${counts}; line(s) ${badLines.slice(0, 5).join(', ')} are not records and are skipped`,
      fix: 'delete those lines',
    };
  } catch (error) {
    return { ...base, status: 'missing', detail: `cannot read ${file}: ${errorText(error)}`, fix: `make ${file} readable and writable by you` };
  }
}
