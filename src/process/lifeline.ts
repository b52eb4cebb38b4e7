/**
 * The lifeline launcher (`native/lifeline.c`, `ccc-lifeline`): every child
 * ccc starts runs under it so that ccc's death, SIGKILL included, ends the child's whole process
 * group at once. This module finds the binary, wraps a command line for it, and turns the errno
 * it reports on the lifeline into the error Node's own spawn would have given.
 */
import os from 'node:os';
import { findNativeHelper } from '../native/native-helpers.js';

/** The launcher (src/native/native-helpers.ts), or undefined (none here and none buildable): children then run directly. */
export function findLifeline(): string | undefined {
  return findNativeHelper('ccc-lifeline');
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
