/**
 * Before a reviewer is started, ccc checks that claude loads the reviewer's guard, in a claude run
 * that can reach no model and has no tools. Watching the review's own frames (guard-probe.ts) is a
 * race: on a loaded machine the model's answer came back and a tool ran before the kill at init.
 * This check decides by construction instead: it starts claude exactly as a review would (the same
 * command or wrapper, directory, settings, setting sources and guard hooks) but with
 * `--tools ""` and `ANTHROPIC_BASE_URL` pointed at a local port that answers nothing, and stops it
 * as soon as the probe has answered or init came first. Only when the probe answered does a review
 * start; the review's own init-frame watch stays, for settings changed while the run goes on.
 *
 * One claude start per ccc process and set-up (about half a second of CPU), not per review.
 * A provider that does not read `ANTHROPIC_BASE_URL` (Bedrock, Vertex), or an `env` in the user's
 * settings that sets it, could still send the check's one short message; with no tools, nothing
 * can run from its answer.
 */
import net from 'node:net';
import { runClaudePrint } from '../../claude/claude-print.js';
import type { CheckerLogger } from '../../log/checker-logger.js';
import { guardWatch, type GuardState } from './guard-probe.js';
import type { ReviewerLaunch } from './reviewer-launch.js';

export interface GuardCheckInput {
  command: string;
  /** A review launch made for this check (reviewerLaunch without a fork); its args and env are used. */
  launch: ReviewerLaunch;
  cwd: string;
  signal: AbortSignal;
  logger: CheckerLogger;
}

/** `active`: the guard loaded. `missing`: claude dropped it. `unknown`: claude ended before either showed. */
export type GuardCheck = Exclude<GuardState, 'waiting'> | 'unknown';

const MESSAGE = "ccc checks that the reviewer's guard loads; nothing is asked.";

const loaded = new Map<string, Promise<GuardCheck>>();

/**
 * The check, made once per `key` (what decides hook loading: the claude command, the user's
 * settings options, the directory, HOME) for as long as its answer is `active`.
 */
export function guardLoads(key: string, input: GuardCheckInput): Promise<GuardCheck> {
  let check = loaded.get(key);
  if (!check) {
    check = checkGuardLoads(input);
    loaded.set(key, check);
    check.then(
      (state) => state === 'active' || loaded.delete(key),
      () => loaded.delete(key),
    );
  }
  return check;
}

export async function checkGuardLoads(input: GuardCheckInput): Promise<GuardCheck> {
  const sink = await silentPort();
  try {
    const watch = guardWatch(input.launch.guardNonce);
    const decided = new AbortController();
    const run = await runClaudePrint({
      command: input.command,
      args: guardCheckArgs(input.launch.args),
      stdin: MESSAGE,
      cwd: input.cwd,
      env: { ...input.launch.env, ANTHROPIC_BASE_URL: sink.url },
      signal: input.signal,
      halt: decided.signal,
      logger: input.logger,
      onFrame: (frame) => {
        if (watch.onFrame(frame) !== 'waiting') decided.abort();
      },
    });
    const state = watch.state();
    if (state === 'waiting') {
      input.logger.warn("could not tell whether claude loads the reviewer's guard; the review's own init frame decides", {
        exit_code: run.exitCode,
        signal: run.signal,
        stderr: run.stderrTail,
      });
      return 'unknown';
    }
    if (sink.connections() > 0) input.logger.debug('the guard check reached its silent port', { connections: sink.connections() });
    return state;
  } finally {
    await sink.close();
  }
}

/** The review's args with no tools at all: the check's `--tools ""` replaces any the user gave. */
export function guardCheckArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--tools') {
      while (i + 1 < args.length && !args[i + 1]!.startsWith('-')) i++;
    } else if (!arg.startsWith('--tools=')) out.push(arg);
  }
  // `--tools` takes several values: the empty one is followed by an option so that it takes nothing else.
  const print = out.indexOf('-p');
  out.splice(print + 1, 0, '--tools', '');
  return out;
}

/** A local port that accepts a connection and closes it unanswered: the check's model "server". */
async function silentPort(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
