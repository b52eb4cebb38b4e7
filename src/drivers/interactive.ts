/**
 * `ccc --supervisor [claude args]`: the real Claude Code TUI in a pty behind the transparent
 * proxy. Stops arrive through the Stop hook injected for this launch, which calls back over the
 * private stop channel; each is decided by `reviewStop`, and the answer goes back to claude as the
 * hook's output (a block with the feedback, or nothing). The agent's exit code is ours.
 *
 * The agent starts first (docs/design/architecture.md, "Start-up"): before the spawn only what it needs (the stop channel, the
 * hook settings, the environment; and with `--observe` the observer, whose URL must be printed
 * before the TUI covers the screen). The session object, its log, the running-session record,
 * the transcript tail (it reads from offset 0), the title updater and plugins' `onSessionStart`
 * follow once claude has had its start to itself: at the first keystroke, the first stop, the
 * agent's exit, or SETTLE_MS after the spawn, whichever comes first (with observers at once).
 * Stops wait for the session. The streams are laid out in docs/design/streams.md.
 */
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { selfCommand, stopHookSettings, withLaunchSettings } from '../stop/launch-settings.js';
import { recordedAgentCost, recordingStatusLine, statusLineFile, userStatusLine } from '../stop/status-line.js';
import { SOCKET_ENV, startStopChannel, TOKEN_ENV } from '../stop/stop-channel.js';
import { startAgentProxy } from '../pty/agent-proxy.js';
import type { BytePath } from '../pty/byte-path.js';
import { TypedInput } from '../input/typed-input.js';
import { InputRecorder } from '../input/input-recorder.js';
import { cccDir } from '../state/paths.js';
import { holdWriteWarnings, showWarning } from '../state/write-failure.js';
import { Run } from '../loop/run.js';
import type { Reporter } from '../reporters/reporter.js';
import { inertText } from '../pty/inert-text.js';
import { agentTitles, supervisedAgentEnv } from '../loop/agent-env.js';
import { hookTimeoutSeconds } from '../loop/hook-timeout.js';
import { event, type SupervisorEvent } from '../loop/events.js';
import type { SupervisedRun } from '../loop/supervise.js';
import { FORWARDED_SIGNALS } from '../pty/forward-signals.js';
import { connectObserver } from '../loop/observer-wiring.js';
import type { ObserverServer } from '../observer/observer-server.js';
import type { RunningSession } from '../sessions/running-session.js';
import type { InteractiveDriver } from './interactive-driver.js';
import { launchSessionId, type SessionPlan } from '../sessions/session-flags.js';
import type { SupervisorSession, SupervisorSessionOptions } from '../sessions/supervisor-session.js';

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

export async function runInteractive(given: SupervisorSessionOptions, options: InteractiveOptions): Promise<number> {
  const { config, configDir } = given.resolved;
  // The agent's spend, as claude's status line reports it, kept in a file by ccc's status line command.
  const statusFile = statusLineFile(cccDir(configDir), process.pid);
  const setup: SupervisorSessionOptions = { ...given, agentCost: () => recordedAgentCost(statusFile) };
  const command = [config.claude.command, ...setup.claudeArgs];
  const size = { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
  const launchId = options.plan.choosesSession ? undefined : crypto.randomUUID();
  // One supervisor per session: the launch's session (ours, `--resume <id>`, `--session-id`, or the
  // newest interactive session for `--continue`) is claimed by the run before claude starts and
  // refused when another live ccc supervises it; a session a stop names later is claimed by the
  // same run as the loop meets it.
  const known = launchId ?? launchSessionId(options.plan, setup.env, setup.cwd, 'interactive');
  // From the spawn on, claude's TUI owns the terminal: a warning ccc has for the user (a log or
  // state write that failed) waits for the terminal to be the user's again, shown meanwhile as an
  // event once the session is open (the title, observers).
  let opened: SupervisorSession | undefined;
  const run = new Run({
    mode: 'interactive',
    configDir,
    cwd: setup.cwd,
    ...(known ? { sessionId: known } : {}),
    warn: (message) => (opened ? opened.logger.warn(message) : showWarning(`ccc: WARN: ${inertText(message)}\n`)),
  });
  // Everything below joins the run's lifetime as it is acquired and is released in reverse once the
  // agent is gone or the run failed: the review still running settles first, the session's reporters
  // (the reviews' summary, then how to continue) speak once the terminal is the user's again.
  const { lifetime } = run;
  return run.using(async () => {
    const early = options.observe ? await openSession(setup) : undefined;
    if (early) run.hold((opened = early));
    const observer = early ? await startObserver(early, command, size, options.stderr) : undefined;
    if (observer)
      lifetime.add(async () => {
        observer.detach();
        await observer.close();
        // The URL printed before the TUI started has scrolled away under it.
        options.stderr.write(`Observer: ${observer.url} (closed with the session)\n`);
      });

    // claude's start is over at its first keystroke or its first stop (each aborts this), at its exit,
    // or SETTLE_MS after the spawn (at once with observers): then the session's own start may begin.
    const claudeStarted = new AbortController();
    // The stop channel is there before the agent (the hook's environment names it); a stop waits
    // for the session's graph. Nothing below awaits before `graph` exists, so no stop can come first.
    const channel = await startStopChannel({
      dir: cccDir(configDir),
      onStop: async (input, hookGone) => {
        claudeStarted.abort();
        return (await graph).driver.hookCall(input, hookGone);
      },
      onError: (error) => logError(`stop channel: ${error.message}`),
    });
    lifetime.add(() => channel.close());
    // On a config disk gone read-only or full the file stays (named by this pid, it misleads no one); the run's ending is not the disk's.
    lifetime.add(() => fs.promises.rm(statusFile, { force: true }).catch(() => {}));
    const timeout = hookTimeoutSeconds(
      setup.pipeline.map((entry) => entry.timeoutSeconds),
      config.supervisor.limit_wait_minutes,
    );
    // The write warnings held while the TUI owned the terminal are shown once it is the user's again.
    lifetime.add(holdWriteWarnings((line) => opened?.emit(event({ kind: 'error', message: line }))));
    const titles = agentTitles(setup.env);
    const launchedAt = Date.now();
    const hook = stopHookSettings({ argv: [...selfCommand(), 'supervisor-hook', '--proxy'], timeoutSeconds: timeout });
    const recorder = new InputRecorder();
    lifetime.add(() => recorder.flush());
    const spawned = startAgentProxy({
      command: config.claude.command,
      args: withLaunchSettings(
        [...(launchId ? ['--session-id', launchId] : []), ...setup.claudeArgs],
        (theirs) => ({ ...hook, statusLine: recordingStatusLine(statusFile, userStatusLine(setup.env, setup.cwd, theirs)) }),
        setup.cwd,
      ),
      cwd: setup.cwd,
      env: supervisedAgentEnv(setup.env, config.supervisor.max_iterations, { ...titles.extra, [SOCKET_ENV]: channel.socketPath, [TOKEN_ENV]: channel.token }),
      // Observers may attach: the output is copied only while one watches, the tail kept for joiners.
      tailBytes: observer?.tailBytes ?? 0,
    });

    // typed$ ─► recorder, from the first keystroke (also those typed while the session loads); the
    // byte path's errors ─► the session's log. Subscribed as the byte path resolves: nothing is missed.
    // The terminal's replies to claude's queries at its start are not keystrokes: they leave claude's start alone.
    const fromTheStart = settledValue(
      spawned.then((proxy) => [
        proxy.typed$.subscribe((typed) => {
          recorder.record(typed);
          claudeStarted.abort();
        }),
        proxy.errors$.subscribe(logError),
      ]),
    );
    lifetime.add(async () => {
      for (const subscription of (await fromTheStart) ?? []) subscription.unsubscribe();
    });
    // The record of a running session (`sessions/<pid>.json`) is there from the start: tools list it.
    const running = spawned.then(() => registerRunning(setup, command, observer, launchId));
    lifetime.add(async () => (await settledValue(running))?.remove());
    // The session's own modules load once the agent runs (or could not start) and has had its start.
    const session = spawned.then(async (proxy) => {
      void proxy.exit.then(() => claudeStarted.abort());
      await proxy.pid;
      await aborted(AbortSignal.any([claudeStarted.signal, AbortSignal.timeout(observer ? 0 : SETTLE_MS)]));
      const current = early ?? (await openSession(setup));
      run.hold((opened = current));
      return current;
    });
    const graph = Promise.all([session, spawned, running]).then(([s, proxy, r]) =>
      sessionGraph(run, s, {
        proxy,
        observer,
        recorder,
        running: r,
        launchId: launchId ?? options.plan.resumedId,
        stderr: options.stderr,
        titles: { claudeTitles: titles.claudeTitles, since: launchedAt },
      }),
    );
    // The frame tail, the observer's wiring, the title.
    lifetime.add(async () => (await settledValue(graph))?.unsubscribe());
    // The agent is gone (or the run failed): a review still running is cancelled (`end()` aborts
    // `session.signal`) and settles before anything else goes.
    lifetime.add(async () => {
      const wired = await settledValue(graph);
      wired?.driver.close();
      (await settledValue(session))?.end();
      if (wired) await settledValue(wired.supervised);
    });
    function logError(message: string): void {
      session.then(
        (s) => s.logger.error(message),
        () => {},
      );
    }

    // Once the agent runs, a signal ccc receives is passed on to it (agent-proxy.ts's listeners, so
    // listening too changes nothing); noted here so that the log says who ended the agent.
    await spawned;
    const received = firstSignal(FORWARDED_SIGNALS);
    lifetime.add(() => received.stop());
    const [proxy, current, wired] = await Promise.all([spawned, session, graph]);
    const exit = await proxy.exit;
    const code = exit.signal ? 128 + exit.signal : exit.exitCode;
    // An agent ended by a signal has no exit code of its own (the relay reports 0 beside the signal).
    current.logger.info('agent exited', { exit_code: exit.signal ? null : exit.exitCode, signal: exit.signal ?? null });
    // The agent is gone: the loop ends with its ending. A review still running is cancelled
    // (`end()` aborts `session.signal`) and settles before anything else goes.
    wired.driver.close({ exit, exitCode: code, received: received.signal });
    current.end();
    // The run's ending is the agent's (the driver's `ended`), said by the run once its loop has settled.
    return (await wired.supervised).exitCode;
  });
}

/**
 * ccc's last lines in the user's terminal, after the reviews' summary. claude's own last line says
 * `claude --resume <id>`, which would leave supervision: how to continue under it, said only for a
 * session claude saved (one the user never wrote to has nothing to continue); and an exit code of 0
 * after /exit must not read as done.
 */
function lastWords(stderr: NodeJS.WritableStream, driver: InteractiveDriver): Reporter {
  return {
    onEvent: () => {},
    async close({ sessionId: id }) {
      if (!id || !fs.existsSync(driver.transcriptOf(id))) return;
      stderr.write(`ccc: continue this session under supervision with \`ccc --supervisor --resume ${id}\`\n`);
      const unconfirmed = driver.unconfirmedWork();
      if (unconfirmed) stderr.write(`ccc: ${inertText(unconfirmed)}\n`);
    },
  };
}

interface SessionGraph {
  /** The stops' driver: the stop channel's calls go to it, and the agent's exit closes it. */
  driver: InteractiveDriver;
  /** The loop over the session's stops (`supervise`), settled once the driver is closed and its last stop answered. */
  supervised: Promise<SupervisedRun>;
  /** Ends the frame tail, the observer's wiring and the title. */
  unsubscribe(): void;
}

interface GraphEdges {
  proxy: BytePath;
  observer: Observer | undefined;
  recorder: InputRecorder;
  running: RunningSession;
  launchId: string | undefined;
  stderr: NodeJS.WritableStream;
  /** Whether claude writes its own titles, and when the launch began (review-status.ts). */
  titles: { claudeTitles: boolean; since: number };
}

/**
 * The session's streams, wired once the session is open (docs/design/streams.md):
 *
 *   sessionId$ ─► the input log and the running-session record follow the current session
 *   sessionId$ ─ switchMap(tail that transcript) ─► frames$ ─► session.onFrame
 *   events$ ─► the terminal title
 *   hook calls ─► InteractiveDriver.stops() ─► supervise ─► each stop's hook answer (interactive-driver.ts)
 */
async function sessionGraph(run: Run, session: SupervisorSession, edges: GraphEdges): Promise<SessionGraph> {
  const [
    { Subscription },
    { InteractiveDriver },
    { runSupervised },
    { reviewTitleUpdater },
    { agentFrames },
    { tailTranscript },
    { inputLogPath },
    { limitWaits },
    { AgentLimitWait },
    { reportersFor },
  ] = await Promise.all([
    import('rxjs'),
    import('./interactive-driver.js'),
    import('../loop/run-supervised.js'),
    import('../loop/review-status.js'),
    import('../loop/agent-frames.js'),
    import('../frames/transcript-tail.js'),
    import('../state/paths.js'),
    import('../loop/limit-wait.js'),
    import('../loop/agent-limit-wait.js'),
    import('../reporters/reporters.js'),
  ]);
  const { proxy, observer, recorder, running } = edges;
  const graph = new Subscription();
  // The title, observers and the summary line hear the session's events and frames (attached
  // before the transcript tail starts: no frame is missed) until the run closes them.
  const title = reviewTitleUpdater((bytes) => proxy.inject(bytes), edges.titles);
  // The reporters the config names warn in the log, and on stderr once the terminal is the user's again.
  const own = session.ownReporters((message) => showWarning(`ccc: WARN: ${inertText(message)}\n`));
  run.report(await reportersFor({ mode: 'interactive', title, stderr: edges.stderr, tally: session, observer, own }));
  void proxy.pid.then((pid) => session.logger.info('interactive session started', { agent_pid: pid ?? null, proxy: proxy.kind }));

  // One schedule for the session's waits on the model's limits: its stops' reviews (one at a time)
  // and the agent's refused turns (the agent is idle while a review runs, and the other way round).
  const waits = limitWaits({ retrySeconds: session.config.supervisor.limit_retry_seconds, maxMinutes: session.config.supervisor.limit_wait_minutes });
  const waitDeps = { logger: session.logger, emit: (e: SupervisorEvent) => session.emit(e), waits, maxMinutes: session.config.supervisor.limit_wait_minutes };
  const agentLimit = new AgentLimitWait({ ...waitDeps, signal: session.signal, type: (text) => proxy.sendToAgent(Buffer.from(text)) });
  const driver = new InteractiveDriver({
    session,
    waits,
    recentFrames: (id, atLeast) => frames.recent(id, atLeast),
    onStopFailure: (stop) => agentLimit.onStopFailure(stop),
  });

  // The session id is known at launch (ours, or `--resume <id>`), else from the first stop; a
  // `/clear` or `/resume` inside the TUI moves the user to another session, which the next stop names.
  graph.add(
    session.sessionId$.subscribe((id) => {
      recorder.bind(inputLogPath(session.configDir, id));
      running.update({ session_id: id });
    }),
  );
  if (edges.launchId) session.setSessionId(edges.launchId);

  // The tail's reader is the one the session's stops read on (stop-context.ts): a stop reads only what the tail has not, and its frames reach the window first.
  const frames = agentFrames(session.sessionId$, (id) => tailTranscript(session.transcripts.follow(id, driver.transcriptOf(id)), session.signal));
  graph.add(frames.frames$.subscribe((frame) => session.onFrame(frame)));
  graph.add(() => frames.stop());

  if (observer) {
    // An observer's page is a terminal too (its focus reports, its replies): its input is read by a filter of its own.
    const observerTyped = new TypedInput((typed) => agentLimit.onInput(typed));
    graph.add(connectObserver(observer, proxy, (data) => observerTyped.push(data)));
    graph.add(() => observerTyped.end());
  }

  // Typing hands the title back to claude (when its titles are on), and the turn back to the user (a wait on the agent's
  // limit ends); the terminal's replies to claude's queries are not typing (typed$ has none).
  graph.add(
    proxy.typed$.subscribe((typed) => {
      title.onInput();
      agentLimit.onInput(typed);
    }),
  );
  graph.add(() => title.stop());

  // Plugins start with the agent, not before it; one that throws is logged, as at the session's end.
  await session.start().catch((error: Error) => session.logger.warn(`checker onSessionStart threw: ${error.message}`));
  // The project before the user's first prompt: a fresh review is given the change since (task-baseline.ts).
  void session.recordTaskStart();

  // The stops, for the session's life; awaited once the agent has exited (a failure is that await's).
  run.report([lastWords(edges.stderr, driver)]);
  const supervised = runSupervised(run, driver, session);
  supervised.catch(() => {});
  return { driver, supervised, unsubscribe: () => graph.unsubscribe() };
}

async function registerRunning(
  setup: SupervisorSessionOptions,
  command: string[],
  observer: Observer | undefined,
  launchId: string | undefined,
): Promise<RunningSession> {
  const { registerRunningSession } = await import('../sessions/running-session.js');
  return registerRunningSession(setup.resolved.configDir, {
    pid: process.pid,
    cwd: setup.cwd,
    command,
    observer_url: observer?.url,
    ...(launchId ? { session_id: launchId } : {}),
  });
}

/** The first of `signals` this process receives from now until `stop()`. */
function firstSignal(signals: readonly NodeJS.Signals[]): { readonly signal: NodeJS.Signals | undefined; stop(): void } {
  let first: NodeJS.Signals | undefined;
  const note = (signal: NodeJS.Signals) => void (first ??= signal);
  for (const signal of signals) process.on(signal, note);
  return {
    get signal() {
      return first;
    },
    stop: () => signals.forEach((signal) => process.off(signal, note)),
  };
}

/** Resolves when `signal` aborts (at once if it has). */
function aborted(signal: AbortSignal): Promise<unknown> {
  return signal.aborted ? Promise.resolve() : once(signal, 'abort');
}

/** The value, or undefined when the promise rejected (its error was handled where it was awaited). */
function settledValue<T>(promise: Promise<T>): Promise<T | undefined> {
  return promise.catch(() => undefined);
}

async function openSession(setup: SupervisorSessionOptions): Promise<SupervisorSession> {
  const { SupervisorSession } = await import('../sessions/supervisor-session.js');
  return new SupervisorSession(setup);
}

async function startObserver(
  session: SupervisorSession,
  command: string[],
  size: { cols: number; rows: number },
  stderr: NodeJS.WritableStream,
): Promise<Observer> {
  const { observeSession } = await import('../loop/observe-session.js');
  return observeSession(session, { command, size, stderr, awaitOutputSource: true });
}
