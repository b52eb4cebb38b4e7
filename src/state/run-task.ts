/**
 * The run's own record of the task under review: how many reviews it has started, in which
 * session the last stop was, in which the task began. The session state (`supervisor-<id>.json`)
 * counts per session id; a claude that gives the session a new id at every turn (one that resumes
 * into a copy, as claude did before `--fork-session`) would start that count again at every stop.
 * This record belongs to the run instead: the ccc process for a supervised run or `ccc kanban`
 * (in memory), the claude process for the standalone Stop hook, whose every stop is a new ccc
 * (`<config dir>/ccc/runs/claude-<pid>-<start>.json`, docs/design/files.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject } from '../config/rules.js';
import { isProcessAlive } from '../process/process-alive.js';
import { isDeadWriterTemp, writeFileAtomic } from './atomic-file.js';
import { cccDir, isValidSessionId } from './paths.js';
import { isSurvivableWriteError, warnWriteFailed } from './write-failure.js';

export interface RunTask {
  /** The session of the run's last stop. */
  sessionId: string;
  /** The session the task began in: where the no-progress history of the task is kept. */
  taskSessionId: string;
  /** Reviews started for the task (the iteration of the last stop). */
  iteration: number;
  /** The run's spend when the task began (the per-task cap counts from it). */
  taskCostFromUsd?: number;
  /** What the reviews of the task's sessions cost (USD): the standalone hook's caps count it after an id change. */
  reviewCostUsd?: number;
  /** A limit's last turn was asked for: its stop is let through unreviewed (review-stop.ts). */
  windDown?: { reason: string; message: string };
  /** Stops of the task that came in another session than the stop before. */
  idChanges: number;
}

export interface RunTasks {
  read(): Promise<RunTask | undefined>;
  write(task: RunTask): Promise<void>;
}

export function memoryRunTasks(): RunTasks {
  let current: RunTask | undefined;
  return {
    read: async () => current,
    write: async (task) => void (current = task),
  };
}

/** Where the standalone hook keeps the record of the claude process `ownerKey` (process-ancestry.ts `processKey`). */
export function runTaskPath(configDir: string, ownerKey: string): string {
  return path.join(cccDir(configDir), 'runs', `claude-${ownerKey}.json`);
}

/**
 * The record of one claude process, kept on disk between its stops' hooks. A record that cannot be
 * read is none (the count falls back on the session state); one the disk refuses stays in this
 * process. Records of claude processes that are gone are removed when a new one is written.
 */
export function fileRunTasks(configDir: string, ownerKey: string): RunTasks {
  const file = runTaskPath(configDir, ownerKey);
  let unsaved: RunTask | undefined;
  return {
    async read() {
      if (unsaved) return unsaved;
      try {
        return parseRunTask(fs.readFileSync(file, 'utf8'));
      } catch {
        return undefined;
      }
    },
    async write(task) {
      try {
        const first = !fs.existsSync(file);
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        await writeFileAtomic(file, `${JSON.stringify(task, null, 2)}\n`);
        if (first) removeGoneRuns(path.dirname(file));
      } catch (error) {
        if (!isSurvivableWriteError(error)) throw error;
        unsaved = task;
        warnWriteFailed(file, error);
      }
    },
  };
}

function parseRunTask(text: string): RunTask | undefined {
  const value: unknown = JSON.parse(text);
  if (!isPlainObject(value)) return undefined;
  const { sessionId, taskSessionId, iteration, taskCostFromUsd, reviewCostUsd, windDown, idChanges } = value;
  if (!isValidSessionId(sessionId) || !isValidSessionId(taskSessionId) || !Number.isSafeInteger(iteration) || (iteration as number) < 0) return undefined;
  const usd = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  const cost = { ...(usd(taskCostFromUsd) ? { taskCostFromUsd } : {}), ...(usd(reviewCostUsd) ? { reviewCostUsd } : {}) };
  const wind = isPlainObject(windDown) && typeof windDown.reason === 'string' && typeof windDown.message === 'string';
  return {
    sessionId,
    taskSessionId,
    iteration: iteration as number,
    ...cost,
    ...(wind ? { windDown: { reason: windDown.reason as string, message: windDown.message as string } } : {}),
    idChanges: Number.isSafeInteger(idChanges) ? (idChanges as number) : 0,
  };
}

/** The records of claude processes that no longer run (their runs are over), and the temp files of writes a killed ccc left. */
function removeGoneRuns(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^claude-(\d+)-/.exec(name)?.[1];
    if ((pid && !isProcessAlive(Number(pid))) || isDeadWriterTemp(name, isProcessAlive)) fs.rmSync(path.join(dir, name), { force: true });
  }
}
