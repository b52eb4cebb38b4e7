/**
 * ccc's end of the link to its front (src/cli/front.cts), the process the user's shell waits for:
 * a socket on the fd named by `CCC_FRONT_FD`, whose closing by every holder lets the shell go on.
 * ccc takes it at start (and takes the name out of its environment, so nothing it starts mistakes
 * an fd of its own for it), hands it to the relay, which closes it once the terminal is given back,
 * and drops its own copy then, or as soon as it knows no relay will have it.
 */
import fs from 'node:fs';
// CommonJS, shared with the front; bundled into ccc's launch code (scripts/bundle-entries.mjs), so
// no start pays Node's parser of CommonJS export names for it.
import { FRONT_FD_ENV as ENV, ownFrontFd } from './front-fd.cjs';

let held: number | undefined;

let behind = false;

/**
 * At start, before anything is spawned: the fd, kept for `frontFd`. A value its front did not set
 * (exported, inherited from another ccc's children) names some other fd: said, and not taken.
 */
export function adoptFront(env: NodeJS.ProcessEnv = process.env, stderr: NodeJS.WritableStream = process.stderr): void {
  const value = env[ENV];
  const fd = ownFrontFd(env);
  delete env[ENV];
  if (fd === undefined) {
    if (value !== undefined)
      stderr.write(`ccc: warning: ${ENV} is set in the environment (${JSON.stringify(value.slice(0, 40))}), but ccc's front did not set it; ignored\n`);
    return;
  }
  held = fd;
  behind = true;
}

/**
 * Whether this ccc runs behind a front. The front passes on the SIGTERM and SIGHUP it receives; a
 * signal to the job's process group (GNU `timeout`, `kill -- -PGID`, a closed terminal) reaches
 * ccc twice then: from its sender, and from the front.
 */
export function isBehindFront(): boolean {
  return behind;
}

/** The front's socket, while ccc still holds it. */
export function frontFd(): number | undefined {
  return held;
}

/** ccc's own copy closed: the relay has its own, or nothing is left to restore. */
export function releaseFront(): void {
  if (held === undefined) return;
  try {
    fs.closeSync(held);
  } catch {
    // already closed
  }
  held = undefined;
}
