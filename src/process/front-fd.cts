/**
 * How ccc's front names the socket it gives ccc (src/cli/front.cts): `CCC_FRONT_FD=<fd>:<front's
 * pid>`. CommonJS, like the front itself, which loads it before anything else; ccc's own end of the
 * link is src/process/front-link.ts.
 */

/** The variable the front sets in ccc's environment. */
export const FRONT_FD_ENV = 'CCC_FRONT_FD';

/** The value the front gives ccc: the fd, and the front's pid (what binds it to the front). */
export function frontValue(fd: number, frontPid = process.pid): string {
  return `${fd}:${frontPid}`;
}

/** The fd `env` names for this process's front, when the value was set by its parent, the front; undefined for a stray copy. */
export function ownFrontFd(env: NodeJS.ProcessEnv, parent = process.ppid): number | undefined {
  const match = /^(\d+):(\d+)$/.exec(env[FRONT_FD_ENV] ?? '');
  if (!match || Number(match[2]) !== parent) return undefined;
  const fd = Number(match[1]);
  return fd > 2 ? fd : undefined;
}
