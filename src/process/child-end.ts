/**
 * How a child process ended, in the words every message uses: `exited with code 1`, or `was killed
 * by SIGKILL` (Node reports a signal's end as code null; "exited with code null" told the user
 * nothing). A leaf.
 */
import os from 'node:os';

export interface ChildEnd {
  exitCode: number | null;
  /** A name (`SIGKILL`) or, from a pty, a number. */
  signal?: string | number | null;
}

export function childEndText(end: ChildEnd): string {
  if (end.signal !== null && end.signal !== undefined && end.signal !== 0) return `was killed by ${signalName(end.signal)}`;
  if (end.exitCode === null) return 'ended without an exit code or a signal';
  return `exited with code ${end.exitCode}`;
}

/** `SIGTERM` for 15 or `'SIGTERM'`; a number no signal has stays a number. */
export function signalName(signal: string | number): string {
  if (typeof signal === 'string') return signal;
  return Object.entries(os.constants.signals).find(([, n]) => n === signal)?.[0] ?? `signal ${signal}`;
}
