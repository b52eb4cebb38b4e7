/**
 * One `ccc kanban` per kanban file at a time: two runners on the same file would both start
 * `current` and do it twice. The lock is a small file beside the kanban file holding the owner's
 * pid; a lock whose owner is gone (a crash, SIGKILL) is taken over, so a rerun after a crash just
 * works. pid-based rather than mtime-based so that the rerun does not have to wait for staleness.
 * The lock sits beside the file the path finally names, so a symlink to the kanban file (or a
 * second path to it) meets the same lock.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CccError, errorText } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-file.js';
import { identify, stopLeftoverAgent, type ProcessIdentity } from './agent-process.js';
import { linkTarget, type FileRef } from './kanban-file.js';

export interface KanbanLock {
  readonly file: string;
  /** Records the running agent, so that a rerun after a crash of ccc can stop it. */
  agentStarted(pid: number): void;
  agentEnded(): void;
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  started_at: string;
  agent?: ProcessIdentity;
}

export interface LockKanbanOptions {
  pid?: number;
  /** Told when a crashed run's agent was found still running and stopped. */
  onNote?: (message: string) => void;
  /** Told, once, when the lock cannot be updated with the running agent. */
  onWarning?: (message: string) => void;
}

/** The lock of the kanban file at `realPath` (symlinks resolved: see `linkTarget`). */
export function lockFileOf(realPath: string): string {
  return path.join(path.dirname(realPath), `.${path.basename(realPath)}.ccc-lock`);
}

export async function lockKanban(kanban: FileRef, options: LockKanbanOptions = {}): Promise<KanbanLock> {
  const pid = options.pid ?? process.pid;
  const real = await linkTarget(kanban.path);
  const file = lockFileOf(real);
  const named = real === kanban.path ? kanban.display : `${kanban.display} (a link to ${path.relative(process.cwd(), real) || real})`;
  const content: LockContent = { pid, started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, `${JSON.stringify(content)}\n`, { flag: 'wx', mode: 0o644 });
      return heldLock(file, content, options.onWarning);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLock(file);
    if (holder && holder.pid !== pid && isAlive(holder.pid)) {
      throw new CccError(
        'KANBAN_INVALID',
        `Another ccc kanban (pid ${holder.pid}, since ${holder.started_at}) is running the workflow of ${named}. Wait for it to finish or stop it; if no such process runs, delete ${path.relative(process.cwd(), file) || file}.`,
        { data: { file: kanban.display, pid: holder.pid } },
      );
    }
    // The owner is gone (or the file is unreadable debris): stop what it left running, take over.
    if (holder?.agent && (await stopLeftoverAgent(holder.agent))) {
      options.onNote?.(`stopped the agent (pid ${holder.agent.pid}) that the interrupted run (pid ${holder.pid}) left running`);
    }
    await fs.rm(file, { force: true });
  }
  throw new CccError('KANBAN_INVALID', `Could not lock ${named}: ${file} keeps reappearing. Is another ccc kanban starting on the same file?`, {
    data: { file: kanban.display },
  });
}

async function readLock(file: string): Promise<LockContent | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LockContent>;
    if (!Number.isInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    const agent = value.agent;
    const validAgent = agent && Number.isInteger(agent.pid) && agent.pid > 0 && typeof agent.start_time === 'string';
    return {
      pid: value.pid as number,
      started_at: String(value.started_at ?? '?'),
      ...(validAgent ? { agent: { pid: agent.pid, start_time: agent.start_time } } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Signal 0 probes without signalling; EPERM means it exists but belongs to someone else. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function heldLock(file: string, content: LockContent, onWarning: (message: string) => void = () => {}): KanbanLock {
  // Lock updates are written one after the other, in call order; a failed update costs only the
  // orphan cleanup after a crash, never the run: it is said once, with what it costs.
  let writes = Promise.resolve();
  let warned = false;
  const update = (next: LockContent) => {
    writes = writes
      .then(() => writeFileAtomic(file, `${JSON.stringify(next)}\n`, { mode: 0o644 }))
      .catch((error: unknown) => {
        if (warned) return;
        warned = true;
        onWarning(`cannot update the lock ${file} (${errorText(error)}): should this run be killed, the next one will not stop the agent it leaves running`);
      });
  };
  return {
    file,
    agentStarted(agentPid) {
      const agent = identify(agentPid);
      if (agent) update({ ...content, agent });
    },
    agentEnded() {
      update(content);
    },
    async release() {
      await writes;
      const holder = await readLock(file);
      if (holder?.pid === content.pid) await fs.rm(file, { force: true });
    },
  };
}
