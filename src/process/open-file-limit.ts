/**
 * The open-file limit ccc starts under. Node loads ccc's modules many files at a time, and a
 * session holds a pty, sockets, its log and its children's pipes: under `ulimit -n 32` Node's
 * module loader itself fails with EMFILE, before any code of ccc could say why, and a limit just
 * above what start-up needs fails later, mid-session. So the limit is read before the first
 * heavy import and a run that could not hold is refused with the fix; where it cannot be read
 * (no /proc), the loader's EMFILE is turned into the same one line.
 */
import { readFileSync } from 'node:fs';

/** What a session needs with room to spare: its reviewer, plugin workers, observers and MCP server included. */
export const OPEN_FILES_NEEDED = 64;

/** The soft limit on open files (Linux: /proc/self/limits), or undefined where it cannot be read or has no bound. */
export function openFileLimit(readLimits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = readLimits();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/** The one line that refuses the run when the limit is known and too low, else undefined. */
export function descriptorShortage(limit: number | undefined = openFileLimit()): string | undefined {
  return limit !== undefined && limit < OPEN_FILES_NEEDED ? tooFewDescriptorsMessage(limit) : undefined;
}

/** The one line for a limit too low to run under (`limit` undefined: known only from an EMFILE). */
export function tooFewDescriptorsMessage(limit: number | undefined): string {
  const now = limit === undefined ? 'the open-file limit (ulimit -n) is too low' : `ulimit -n is ${limit}`;
  return `ccc: too few file descriptors: ${now}, ccc needs ${OPEN_FILES_NEEDED}. Raise it (\`ulimit -n 1024\`) and run ccc again.\n`;
}

/** Whether `error` is the process (or the system) running out of file descriptors. */
export function isOutOfDescriptors(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}
