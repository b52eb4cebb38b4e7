/**
 * ccc's front: the process the user's shell waits for when a supervised session runs in a
 * terminal. A `kill -9` of ccc runs no code in ccc, and a shell resumes the moment the process it
 * launched is gone; if that were ccc, the shell could read the terminal before the relay (another
 * process) had put it back. So the launched process stays this small one: it runs ccc as its
 * child, in the same process group (job control is unchanged), and ends only once the terminal
 * has been given back. The proof is a socket, ccc's fd `CCC_FRONT_FD`: ccc hands it to its relay
 * and drops its own copy (src/process/front-link.ts); the relay closes it right after the restore,
 * on every path (native/relay.c, `--hold-fd`). The front waits for its end of file, then ends the
 * way ccc ended (its exit code, or the same signal). A front killed itself is the old race; the
 * relay then gives the terminal back and ends the agent as when ccc dies.
 *
 * Cost: one more Node start on the way to claude's prompt (see bench/RESULTS.md, "The front: one
 * more Node start"). So the front is CommonJS and loads only Node's modules and two small ones of
 * its own (no ES module loader, no compile cache, none of ccc): the installed `ccc` (bin.cts)
 * starts ccc behind it before anything else is loaded.
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { isatty } from 'node:tty';
import { closeGoneTerminals } from '../process/stdio-reset.cjs';
import { FRONT_FD_ENV, frontValue, ownFrontFd } from '../process/front-fd.cjs';

/** The fd ccc gets the front's socket on, named in its environment (FRONT_FD_ENV). */
const FRONT_FD = 3;

/**
 * A bound on the wait for the relay, only for a holder that never lets go (a child that inherited
 * the socket and does not end): the relay itself closes it within milliseconds of ccc's death.
 */
const HOLD_LIMIT_MS = 5000;

/** Signals a shell or a supervisor sends to the process it launched, passed on to ccc. */
const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];

/**
 * Whether this launch gets a front: a supervised session in a terminal with the native relay
 * possible (not `CCC_RELAY=off`, not Windows), and not ccc already running behind one (a
 * `CCC_FRONT_FD` its parent set; a stray copy in the environment changes nothing).
 */
export function wantsFront(supervised: boolean, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  return supervised && platform !== 'win32' && env.CCC_RELAY !== 'off' && ownFrontFd(env) === undefined && isatty(0) && isatty(1);
}

/** Runs ccc (`main`, its main module) behind the front; never returns (the front ends as ccc ended). */
export async function runFront(main: string, argv: string[]): Promise<never> {
  // Required here, not at the top: main.js imports this module for every command, most never spawn.
  const { spawn } = module.require('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, [...process.execArgv, main, ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [FRONT_FD_ENV]: frontValue(FRONT_FD) },
  });
  const forwarders = FORWARDED.map((signal) => {
    const forward = () => void child.kill(signal);
    process.on(signal, forward);
    return () => void process.off(signal, forward);
  });
  // SIGINT and SIGQUIT come from the terminal to the whole process group, ccc included: not twice.
  for (const signal of ['SIGINT', 'SIGQUIT'] as const) process.on(signal, () => {});
  // A spawn that failed (EMFILE, EAGAIN) has no stdio at all; its 'error' comes on the next tick.
  const restored = released((child.stdio?.[3] ?? null) as Socket | null);
  const ended = await childEnd(child);
  // While ccc lives the relay holds the socket for as long as the session lasts; from ccc's end on, bounded.
  let limit: NodeJS.Timeout | undefined;
  await Promise.race([restored, new Promise((resolve) => (limit = setTimeout(resolve, HOLD_LIMIT_MS)))]);
  clearTimeout(limit);
  for (const stop of forwarders) stop();
  if ('error' in ended) {
    process.stderr.write(`ccc: cannot start ccc behind its front: ${ended.error.message}\n`);
    process.exit(127);
  }
  if (ended.signal) {
    process.removeAllListeners(ended.signal);
    // No 'exit' listener runs for a death by signal: a terminal that is gone is let go of here (stdio-reset.cts).
    closeGoneTerminals();
    process.kill(process.pid, ended.signal);
  }
  process.exit(ended.code ?? 1);
}

type ChildEnd = { code: number | null; signal: NodeJS.Signals | null } | { error: Error };

function childEnd(child: ChildProcess): Promise<ChildEnd> {
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Every holder of the socket's other end has closed it. */
function released(socket: Socket | null): Promise<void> {
  if (!socket) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.on('error', done);
    socket.once('close', done);
    socket.once('end', done);
    socket.resume();
  });
}
