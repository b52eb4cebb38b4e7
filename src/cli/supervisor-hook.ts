/**
 * `ccc supervisor-hook`: the Stop hook (docs/design/stop-path.md). Reads the hook JSON on stdin and prints
 * Claude Code's decision on stdout (a block with the feedback, or nothing to allow the stop).
 *
 * - `--proxy` (the hook ccc injects into the claude it launches): hand the stop to that ccc over
 *   the private stop channel and print its answer.
 * - `CCC_SUPERVISOR_HOOK=<ccc's pid>`, and this hook's claude is the reviewer that ccc started:
 *   the reviewer's own stop: allow at once, never recurse.
 * - `CCC_SUPERVISED=<ccc's pid>`, and this hook's claude is the agent that ccc started: a
 *   user-installed hook inside a session that ccc supervises: that ccc decides, so allow here (no
 *   double review).
 * - otherwise: run the checker pipeline right here (the `ccc hook install` case). A marker that is
 *   set but not bound to this hook's claude (a stray copy in the environment: a test suite the
 *   agent runs, a nested claude, an export) is said on stderr and ignored.
 * Malformed input is a one-line explanation on stderr and never a block.
 */
import type { Readable, Writable } from 'node:stream';
import { errorText, isCccError } from '../errors.js';
import { inertText } from '../pty/inert-text.js';
import { REVIEW_ENV, SUPERVISED_ENV } from '../loop/supervised-env.js';
import { hookOwner, startedBy } from '../process/process-ancestry.js';
import { askStopChannel, SOCKET_ENV, TOKEN_ENV } from '../stop/stop-channel.js';
import { parseStopInput } from '../stop/stop-event.js';

interface HookIo {
  args: string[];
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

const MAX_STDIN = 64 * 1024 * 1024;

/** `ccc supervisor-hook` on this process's own streams: what main.ts's fast path and the command table run. */
export function runSupervisorHookCommand(args: string[]): Promise<number> {
  return runSupervisorHook({ args, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
}

async function runSupervisorHook(io: HookIo): Promise<number> {
  const viaProxy = io.args.includes('--proxy');
  // The proxy hook is ccc's own, in the claude it launched: the running ccc answers, whatever the environment holds.
  const marked = viaProxy ? {} : markers(io.env);
  if (marked.review === 'bound') return 0;
  const input = await readAll(io.stdin);
  if (input === undefined) {
    io.stderr.write(`ccc supervisor-hook: hook input is larger than ${MAX_STDIN} bytes; stop allowed\n`);
    return 0;
  }
  const parsed = parseStopInput(input);
  if (!parsed.ok) {
    io.stderr.write(`ccc supervisor-hook: ${parsed.error}; stop allowed\n`);
    return 0;
  }
  if (viaProxy) return answerThroughProxy(io, input);
  if (marked.supervised === 'bound') return 0;
  for (const name of marked.stray ?? [])
    io.stderr.write(
      `ccc supervisor-hook: ${name}=${inertText(io.env[name] ?? '').slice(0, 40)} is set, but this claude was not started by that ccc (a copy inherited from another process); ignored: the stop is reviewed here\n`,
    );
  try {
    // The hook's own run, loaded only when no ccc runs this session.
    const { decideStandalone, noteStopFailure } = await import('../drivers/standalone-hook.js');
    // A turn that ended on an API error has nothing to review; claude ignores what this hook answers.
    if (parsed.value.raw.hook_event_name === 'StopFailure') {
      const noted = await noteStopFailure(parsed.value, io.env);
      if (noted) io.stderr.write(`ccc supervisor-hook: ${inertText(noted)}\n`);
      return 0;
    }
    const { output, allowedBecause } = await decideStandalone(parsed.value, io.env);
    if (output) io.stdout.write(output + '\n');
    // A checker that failed (or a limit that ended the loop) lets the stop through: never silently.
    if (allowedBecause) io.stderr.write(`ccc supervisor-hook: ${inertText(allowedBecause).replace(/\s*\n\s*/g, ' ')}; stop allowed\n`);
  } catch (error) {
    // One line for every failure, as for every other way the stop is let through (docs/exit-codes.md).
    const message = isCccError(error) ? error.message : `unexpected error: ${errorText(error)}`;
    io.stderr.write(`ccc supervisor-hook: ${inertText(message).replace(/\s*\n\s*/g, ' ')}; stop allowed\n`);
  }
  return 0;
}

/** Which of ccc's markers bind this hook's claude, and which are stray copies (supervised-env.ts). */
function markers(env: NodeJS.ProcessEnv): { review?: 'bound'; supervised?: 'bound'; stray?: string[] } {
  const set = [REVIEW_ENV, SUPERVISED_ENV].filter((name) => env[name] !== undefined);
  if (set.length === 0) return {};
  const owner = hookOwner();
  const bound = (name: string) => {
    const pid = Number(env[name]);
    return owner !== undefined && Number.isSafeInteger(pid) && pid > 1 && startedBy(owner, pid);
  };
  return {
    ...(bound(REVIEW_ENV) ? { review: 'bound' as const } : {}),
    ...(bound(SUPERVISED_ENV) ? { supervised: 'bound' as const } : {}),
    stray: set.filter((name) => !bound(name)),
  };
}

async function answerThroughProxy(io: HookIo, input: string): Promise<number> {
  const socket = io.env[SOCKET_ENV];
  const token = io.env[TOKEN_ENV];
  if (!socket || !token) {
    io.stderr.write('ccc supervisor-hook --proxy: not started by a supervising ccc (no stop channel); stop allowed\n');
    return 0;
  }
  try {
    const output = await askStopChannel(socket, token, input);
    if (output) io.stdout.write(output + '\n');
  } catch (error) {
    io.stderr.write(`ccc supervisor-hook: cannot reach the supervising ccc (${errorText(error)}); stop allowed\n`);
  }
  return 0;
}

function readAll(stream: Readable): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_STDIN) {
        stream.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}
