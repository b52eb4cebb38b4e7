/**
 * The lifeline launcher (`native/lifeline.c`, `ccc-lifeline`): every child
 * ccc starts runs under it so that ccc's death, SIGKILL included, ends the child's whole process
 * group at once. This module finds the binary, wraps a command line for it, and turns the errno
 * it reports on the lifeline into the error Node's own spawn would have given.
 */
import os from 'node:os';
import { isCccError } from '../errors.js';
import { findNativeHelper } from '../native/native-helpers.js';

/**
 * The launcher (src/native/native-helpers.ts), or undefined (none here and none buildable, or no
 * config dir to keep it in: HOME empty): children then run directly. Where HOME is unusable a run
 * is refused with its own message; what still runs then (`ccc --version` asking claude's) must not
 * fail on where a helper would be kept.
 */
export function findLifeline(): string | undefined {
  try {
    return findNativeHelper('ccc-lifeline');
  } catch (error) {
    if (isCccError(error, 'USAGE')) return undefined;
    throw error;
  }
}

/** The launcher's argv for a command; a shell command the way Node's `shell: true` runs it. */
export function lifelineArgs(command: string, args: string[], shell: boolean): string[] {
  return shell ? ['--', '/bin/sh', '-c', [command, ...args].join(' ')] : ['--', command, ...args];
}

/**
 * The 4-byte errno the launcher writes when the command cannot be executed, as the Error Node's
 * spawn gives (`spawn claude ENOENT`, code `ENOENT`), so callers keep telling "not found" apart.
 */
export function execError(report: Buffer, command: string): Error | undefined {
  if (report.length < 4) return undefined;
  const errno = os.endianness() === 'LE' ? report.readInt32LE(0) : report.readInt32BE(0);
  const code = Object.entries(os.constants.errno).find(([, value]) => value === errno)?.[0] ?? `errno ${errno}`;
  return Object.assign(new Error(`spawn ${command} ${code}`), { code, errno: -errno, syscall: `spawn ${command}`, path: command });
}
