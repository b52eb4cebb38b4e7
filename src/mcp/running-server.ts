/**
 * `<config dir>/ccc/mcp-servers/<pid>.json`: a `ccc mcp` server that is running now, with its
 * feedback page's address (token included, hence mode 0600 in a 0700 directory), for
 * `ccc sessions`. An MCP client such as Claude Code keeps the server's log with the token
 * redacted, so this record is how a user finds the page. Removed when the server exits; the
 * record of a server that could not remove it (killed) is skipped by readers and removed by the
 * next server that starts, as `sessions/<pid>.json` are.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { removeStaleRecords } from '../sessions/running-session.js';
import { isProcessAlive } from '../process/process-alive.js';
import { writeFileAtomic } from '../state/atomic-file.js';
import { cccDir } from '../state/paths.js';
import { errorText } from '../errors.js';

export const MCP_SERVERS_DIR = 'mcp-servers';

export interface McpServerRecord {
  pid: number;
  mode: 'supervisor' | 'single-process';
  cwd: string;
  started_at: string;
  /** The feedback page with its token; absent when the web server could not start. */
  page_url?: string;
  health_url?: string;
}

const recordShape = z.object({
  pid: z.number().int().positive(),
  mode: z.enum(['supervisor', 'single-process']),
  cwd: z.string(),
  started_at: z.string(),
  page_url: z.string().optional(),
  health_url: z.string().optional(),
});

export interface McpServerRegistration {
  remove(): Promise<void>;
}

/** Writes this server's record (after removing those of dead servers). Throws when it cannot. */
export async function registerMcpServer(configDir: string, record: Omit<McpServerRecord, 'started_at'>): Promise<McpServerRegistration> {
  const dir = path.join(cccDir(configDir), MCP_SERVERS_DIR);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeStaleRecords(dir, isProcessAlive);
  const file = path.join(dir, `${record.pid}.json`);
  await writeFileAtomic(file, `${JSON.stringify({ ...record, started_at: new Date().toISOString() }, null, 2)}\n`, { mode: 0o600 });
  return {
    async remove() {
      await fsp.rm(file, { force: true });
    },
  };
}

export interface RunningMcpServers {
  servers: McpServerRecord[];
  problems: Array<{ file: string; error: string }>;
}

/** The records of servers whose process is alive, by pid; unreadable records under `problems`. */
export async function readRunningMcpServers(configDir: string, isAlive: (pid: number) => boolean = isProcessAlive): Promise<RunningMcpServers> {
  const dir = path.join(configDir, 'ccc', MCP_SERVERS_DIR);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const servers: McpServerRecord[] = [];
  const problems: RunningMcpServers['problems'] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    const file = path.join(dir, name);
    let parsed;
    try {
      parsed = recordShape.safeParse(JSON.parse(await fsp.readFile(file, 'utf8')));
    } catch (error) {
      // Gone between the listing and the read: that server just exited.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      problems.push({ file, error: errorText(error) });
      continue;
    }
    if (!parsed.success) {
      problems.push({ file, error: parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ') });
      continue;
    }
    if (isAlive(parsed.data.pid)) servers.push(parsed.data);
  }
  return { servers: servers.sort((a, b) => a.pid - b.pid), problems };
}
