/**
 * `ccc --supervisor [claude args]`: the real Claude Code TUI in a pty behind the transparent
 * proxy. Stops arrive through the Stop hook injected for this launch, which calls back over the
 * private stop channel; each is decided by `reviewStop`, and the answer goes back to claude as the
 * hook's output (a block with the feedback, or nothing). The agent's exit code is ours.
 *
 * The agent starts first (issue 16): before the spawn only what it needs (the stop channel, the
 * hook settings, the environment; and with `--observe` the observer, whose URL must be printed
 * before the TUI covers the screen). The session object, its log, the running-session record,
 * the transcript tail (it reads from offset 0), the title updater and plugins' `onSessionStart`
 * follow once claude has had its start to itself: at the first keystroke, the first stop, the
 * agent's exit, or SETTLE_MS after the spawn, whichever comes first (with observers at once).
 * Stops wait for the session.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { selfCommand, stopHookSettings, withLaunchSettings } from '../stop/launch-settings.js';
import { SOCKET_ENV, startStopChannel, TOKEN_ENV } from '../stop/stop-channel.js';
import { startAgentProxy } from '../pty/agent-proxy.js';
import type { BytePath } from '../pty/byte-path.js';
import { InputRecorder } from '../input/input-recorder.js';
import { cccDir } from '../state/paths.js';
import { supervisedAgentEnv } from './agent-env.js';
import { event } from './events.js';
import { reviewSummary } from './review-summary.js';
import type { ObserverServer } from '../observer/observer-server.js';
import type { RunningSession } from './running-session.js';
import type { SessionPlan } from './session-flags.js';
import type { SupervisorSession, SupervisorSessionOptions } from './supervisor-session.js';

/** How long the session's own start may wait for claude's (on 2 cores they compete for the CPU). */
const SETTLE_MS = 2000;

export interface InteractiveOptions {
  /** Start the remote observer (`--observe`). */
  observe: boolean;
  /** Which session the launch is in (the user's flags; stops name the one the user is in later). */
  plan: SessionPlan;
  stderr: NodeJS.WritableStream;
}

type Observer = ObserverServer & { detach(): void };

export async function runInteractive(setup: SupervisorSessionOptions, options: InteractiveOptions): Promise<number> {
  const { config, configDir } = setup.resolved;
  const command = [config.claude.command, ...setup.claudeArgs];
  const size = { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
  const early = options.observe ? await openSession(setup) : undefined;
  const observer = early ? await startObserver(early, command, size, options.stderr) : undefined;
  const session = deferred<SupervisorSession>();
  if (early) session.resolve(early);
  const logError = (message: string) => void session.promise.then((s) => s.logger.error(message));

  const onStop = deferred<StopHandler>();
  const settled = deferred<void>();
  const channel = await startStopChannel({
    dir: cccDir(configDir),
    onStop: async (input, hookGone) => {
      settled.resolve();
      return (await onStop.promise)(input, hookGone);
    },
    onError: (error) => logError(`stop channel: ${error.message}`),
  });
  const launchId = options.plan.choosesSession ? undefined : crypto.randomUUID();
  const timeout = config.supervisor.timeout_seconds * Math.max(1, setup.pipeline.length) + 30;
  const hook = stopHookSettings({ argv: [...selfCommand(), 'supervisor-hook', '--proxy'], timeoutSeconds: timeout });
  const proxy = await startAgentProxy({
    command: config.claude.command,
    args: withLaunchSettings([...(launchId ? ['--session-id', launchId] : []), ...setup.claudeArgs], hook, setup.cwd),
    cwd: setup.cwd,
    env: supervisedAgentEnv(setup.env, config.supervisor.max_iterations, { [SOCKET_ENV]: channel.socketPath, [TOKEN_ENV]: channel.token }),
    // Observers may attach: the output is copied only while one watches, the tail kept for joiners.
    tailBytes: observer?.tailBytes ?? 0,
    onError: logError,
  });
  // Typed input is recorded from the first keystroke, also the ones typed while the session loads.
  const recorder = new InputRecorder();
  const recording = proxy.stdin$.subscribe((chunk) => {
    recorder.record(chunk);
    settled.resolve();
  });
  void proxy.exit.then(() => settled.resolve());
  const settleTimer = setTimeout(() => settled.resolve(), observer ? 0 : SETTLE_MS);

  const undo: Array<() => void | Promise<void>> = [];
  let current = early;
  let started: AfterSpawnResult | undefined;
  try {
    // The record of a running session (`sessions/<pid>.json`) is there from the start: tools list it.
    const { registerRunningSession } = await import('./running-session.js');
    const running = registerRunningSession(configDir, { pid: process.pid, cwd: setup.cwd, command, observer_url: observer?.url, ...(launchId ? { session_id: launchId } : {}) });
    undo.push(() => running.remove());
    // The agent runs (or could not start) and has had its start before the session's modules load.
    await proxy.pid;
    await settled.promise;
    current ??= await openSession(setup);
    session.resolve(current);
    started = await afterSpawn(current, { proxy, observer, recorder, running, launchId: launchId ?? options.plan.resumedId, undo });
    onStop.resolve(started.onStop);
    const exit = await proxy.exit;
    const code = exit.signal ? 128 + exit.signal : exit.exitCode;
    current.logger.info('agent exited', { exit_code: exit.exitCode, signal: exit.signal ?? null });
    current.emit(event({ kind: 'end', exit_code: code }));
    return code;
  } finally {
    clearTimeout(settleTimer);
    // The agent is gone: a review still running is cancelled, and settles before the teardown.
    current?.end();
    await started?.settled();
    recording.unsubscribe();
    for (const step of undo.reverse()) await step();
    await recorder.flush();
    await channel.close();
    observer?.detach();
    await observer?.close();
    await current?.close();
    // The URL printed before the TUI started has scrolled away under it.
    if (observer) options.stderr.write(`Observer: ${observer.url} (closed with the session)\n`);
    // After the TUI is gone and the terminal restored: what this session's reviews cost.
    const summary = current && reviewSummary(current.reviews, current.reviewUsage);
    if (summary) options.stderr.write(`ccc: ${summary}\n`);
    // claude's own last line says `claude --resume <id>`, which would leave supervision. Said only
    // for a session claude saved (one the user never wrote to has nothing to continue).
    const id = current?.sessionId;
    if (id && started && fs.existsSync(started.transcriptOf(id))) options.stderr.write(`ccc: continue this session under supervision with \`ccc --supervisor --resume ${id}\`\n`);
  }
}

type StopHandler = (input: string, hookGone: AbortSignal) => Promise<string>;

interface AfterSpawnResult {
  onStop: StopHandler;
  /** Where a session's transcript is (as its stop named it, else claude's place for the project). */
  transcriptOf(sessionId: string): string;
  /** Resolves when no review is running. */
  settled(): Promise<void>;
}

interface AfterSpawn {
  proxy: BytePath;
  observer: Observer | undefined;
  recorder: InputRecorder;
  running: RunningSession;
  launchId: string | undefined;
  /** Teardown steps, run in reverse order when the session ends. */
  undo: Array<() => void | Promise<void>>;
}

/** Everything the agent's start does not wait for; returns the stop handler. */
async function afterSpawn(session: SupervisorSession, a: AfterSpawn): Promise<AfterSpawnResult> {
  const [{ Subject, catchError, concatMap, from, map, of }, { reviewStop }, { reviewTitleUpdater }, { agentFrames }, { tailTranscript }, { transcriptPathFor }, { parseStopInput }, { hookOutput }, { inputLogPath }, { holdWriteWarnings }] =
    await Promise.all([
      import('rxjs'),
      import('./review-stop.js'),
      import('./review-status.js'),
      import('./agent-frames.js'),
      import('../frames/transcript-tail.js'),
      import('../frames/transcript.js'),
      import('../stop/stop-event.js'),
      import('../stop/hook-output.js'),
      import('../state/paths.js'),
      import('../state/write-failure.js'),
    ]);
  const { proxy, observer, recorder, running } = a;
  const bindSession = (id: string) => {
    if (session.sessionId === id) return;
    session.setSessionId(id);
    recorder.bind(inputLogPath(session.configDir, id));
    running.update({ session_id: id });
  };
  // The session id is known at launch (ours, or `--resume <id>`), else from the first stop; a
  // `/clear` or `/resume` inside the TUI moves the user to another session, which the next stop names.
  if (a.launchId) bindSession(a.launchId);
  void proxy.pid.then((pid) => session.logger.info('interactive session started', { agent_pid: pid ?? null, proxy: proxy.kind }));

  const title = reviewTitleUpdater((bytes) => proxy.inject(bytes));
  const events = session.events$.subscribe((e) => title.onEvent(e));
  // A failed write's warning waits while the TUI owns the terminal (the title and observers show it
  // as an event); the undo steps run once the terminal is the user's again.
  const releaseWarnings = holdWriteWarnings((line) => session.emit(event({ kind: 'error', message: line })));
  a.undo.push(() => {
    title.stop();
    events.unsubscribe();
    releaseWarnings();
  });
  if (observer) connectObserver(observer, proxy, a.undo);
  // Where each session's transcript is, as its stop said: a `--worktree` session's is not under ccc's own directory.
  const transcripts = new Map<string, string>();
  const transcriptOf = (id: string) => transcripts.get(id) ?? transcriptPathFor(session.env, session.cwd, id);
  const frames = agentFrames(session.sessionId$, (id) => tailTranscript(transcriptOf(id), session.signal, { logger: session.logger }));
  const framing = frames.frames$.subscribe((frame) => session.onFrame(frame));
  a.undo.push(() => {
    framing.unsubscribe();
    frames.stop();
  });
  // Plugins start with the agent, not before it; one that throws is logged, as at the session's end.
  await session.start().catch((error: Error) => session.logger.warn(`checker onSessionStart threw: ${error.message}`));

  // stop$ ─ concatMap(review) ─► verdict$ ─► the hook's answer and events$: one review at a time,
  // each stop answered by its own verdict; a review that throws fails its own stop only.
  const stop$ = new Subject<Stop>();
  let reviewing: Promise<unknown> | undefined;
  const decide = async ({ input, hookGone }: Stop): Promise<string> => {
    const parsed = parseStopInput(input);
    if (!parsed.ok) {
      session.logger.warn(`malformed Stop hook input: ${parsed.error}`);
      return '';
    }
    if (parsed.value.transcriptPath) transcripts.set(parsed.value.sessionId, parsed.value.transcriptPath);
    bindSession(parsed.value.sessionId);
    // Esc or Ctrl-C in the TUI makes claude kill its running Stop hook (pinned in
    // test/loop/review-cancel.test.ts): the hook hanging up cancels the review, as the agent's exit does.
    const review = reviewStop(parsed.value, {
      ...session.reviewDeps(),
      signal: AbortSignal.any([hookGone, session.signal]),
      recentFrames: (id, atLeast) => frames.recent(id, atLeast),
    });
    reviewing = review;
    const decision = await review;
    session.emit(event({ kind: 'phase', phase: decision.action === 'block' ? 'agent' : 'idle' }));
    return hookOutput(decision, { showVerdict: true });
  };
  const verdict$ = stop$.pipe(
    concatMap((stop) =>
      from(decide(stop)).pipe(
        map((output): Verdict => ({ stop, output })),
        catchError((error: unknown) => of<Verdict>({ stop, error })),
      ),
    ),
  );
  const answering = verdict$.subscribe((verdict) => ('error' in verdict ? verdict.stop.fail(verdict.error) : verdict.stop.answer(verdict.output)));
  a.undo.push(() => answering.unsubscribe());
  return {
    transcriptOf,
    onStop: (input, hookGone) => new Promise<string>((answer, fail) => stop$.next({ input, hookGone, answer, fail })),
    settled: async () => {
      await reviewing?.catch(() => {});
    },
  };
}

/** A stop of the agent, answered by its verdict (the hook's output) or failed by the review's error. */
interface Stop {
  input: string;
  hookGone: AbortSignal;
  answer(output: string): void;
  fail(error: unknown): void;
}

type Verdict = { stop: Stop; output: string } | { stop: Stop; error: unknown };

function connectObserver(observer: Observer, proxy: BytePath, undo: AfterSpawn['undo']): void {
  const subscriptions = [
    proxy.ptyOutput$.subscribe((chunk) => observer.publishPty(chunk)),
    proxy.gap$.subscribe((lost) => observer.outputGap(lost)),
    // Output is copied only while someone watches; the tail kept meanwhile is a joiner's screen.
    proxy.tail$.subscribe((tail) => observer.replaceTail(tail)),
  ];
  const offInput = observer.onInput((data) => proxy.sendToAgent(data));
  const offResize = proxy.onResize(() => observer.resize(proxy.size().cols, proxy.size().rows));
  observer.setOutputSource(proxy);
  undo.push(() => {
    for (const s of subscriptions) s.unsubscribe();
    offInput();
    offResize();
  });
}

async function openSession(setup: SupervisorSessionOptions): Promise<SupervisorSession> {
  const { SupervisorSession } = await import('./supervisor-session.js');
  return new SupervisorSession(setup);
}

async function startObserver(session: SupervisorSession, command: string[], size: { cols: number; rows: number }, stderr: NodeJS.WritableStream): Promise<Observer> {
  const { observeSession } = await import('./observe-session.js');
  return observeSession(session, { command, size, stderr, awaitOutputSource: true });
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
