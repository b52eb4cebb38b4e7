/**
 * Before a supervised session starts: can ccc keep its files under `<config dir>/ccc/`? A
 * read-only, missing or full directory is one clear error (exit 2) naming the directory, what
 * failed and how to choose another, instead of a stack trace from the first write deep inside a
 * review.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CccError } from '../errors.js';

/** Big enough that a directory with less room than one review's state and log lines fails here. */
const PROBE_BYTES = 16 * 1024;

/**
 * The directory's existence and its folders are checked at once (a throw here means nothing else
 * has run, nor created anything); the write probe's fsync waits on the disk, so it is returned as a
 * promise that the launch awaits before the agent starts, while it reads claude's version.
 */
export function requireUsableConfigDir(configDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const chosen = env.CCC_CONFIG_DIR ? 'CCC_CONFIG_DIR' : undefined;
  if (chosen && !fs.existsSync(configDir)) {
    throw unusable(configDir, `it does not exist (set by CCC_CONFIG_DIR)`, 'Create it, or point CCC_CONFIG_DIR at an existing directory.');
  }
  const dir = path.join(configDir, 'ccc');
  let step = `create ${dir}`;
  try {
    fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
    // One level at a time: a recursive mkdir reports a read-only file system as ENOENT.
    makeDir(dir);
    step = `create ${path.join(dir, 'sessions')}`;
    makeDir(path.join(dir, 'sessions'));
  } catch (error) {
    throw unusableAfter(configDir, step, error);
  }
  return probeWrite(path.join(dir, `.write-check-${process.pid}`)).catch((error: unknown) => {
    throw unusableAfter(configDir, `write a file in ${dir}`, error);
  });
}

function unusableAfter(configDir: string, step: string, error: unknown): CccError {
  const { code, message } = error as NodeJS.ErrnoException;
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full'
      : code === 'EROFS'
        ? 'the file system is read-only'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : message;
  return unusable(
    configDir,
    `could not ${step}: ${why} (${code ?? 'error'})`,
    `Make it writable${code === 'ENOSPC' ? ' or free some space' : ''}, or choose another directory with CCC_CONFIG_DIR=<dir>.`,
    error,
  );
}

function makeDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Written and synced without blocking: the fsync waits on the disk (milliseconds, more on a busy one) while the launch goes on. */
async function probeWrite(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'w', 0o600);
  try {
    await handle.write(Buffer.alloc(PROBE_BYTES));
    await handle.sync();
  } finally {
    await handle.close();
    await fs.promises.rm(file, { force: true });
  }
}

function unusable(configDir: string, what: string, fix: string, cause?: unknown): CccError {
  return new CccError('CONFIG_DIR_UNUSABLE', `Cannot keep session logs and state in the config directory ${configDir}: ${what}. ${fix}`, {
    data: { configDir },
    ...(cause === undefined ? {} : { cause }),
  });
}
