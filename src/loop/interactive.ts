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
import { TerminalReplyFilter } from '../input/terminal-replies.js';
import { InputRecorder } from '../input/input-recorder.js';
import { cccDir } from '../state/paths.js';
import { holdWriteWarnings } from '../state/write-failure.js';
import { claimedMessage, SessionClaims } from '../state/session-claims.js';
import { CccError, isCccError } from '../errors.js';
import { inertText } from '../pty/inert-text.js';
import { supervisedAgentEnv, supervisedBlockCap } from './agent-env.js';
import { hookTimeoutSeconds } from './hook-timeout.js';
import { event, type SupervisorEvent } from './events.js';
import { interactiveEnding, type InteractiveEnding } from './interactive-ending.js';
import { decisionText, failureText } from './run-ending.js';
import { FORWARDED_SIGNALS } from '../pty/forward-signals.js';
import type { ObserverServer } from '../observer/observer-server.js';
import type { RunningSession } from './running-session.js';
import type { Stop, StopPipe } from './interactive-stops.js';
import { launchSessionId, type SessionPlan } from './session-flags.js';
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

export async function runInteractive(given: SupervisorSessionOptions, options: InteractiveOptions): Promise<number> {
  const { config, configDir } = given.resolved;
  // The agent's spend, as claude's status line reports it, kept in a file by ccc's status line command.
  const statusFile = statusLineFile(cccDir(configDir), process.pid);
  let setup: SupervisorSessionOptions = { ...given, agentCost: () => recordedAgentCost(statusFile) };
  const command = [config.claude.command, ...setup.claudeArgs];
  const size = { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
  const launchId = options.plan.choosesSession ? undefined : crypto.randomUUID();
  // One supervisor per session, one claim path: the launch's session (ours, `--resume <id>`,
  // `--session-id`, or the newest interactive session for `--continue`) is claimed before claude
  // starts and refused when another live ccc supervises it; a session a stop names later is claimed
  // through the same object (the session's `claim`), and all are released once, in the teardown.
  const claims = new SessionClaims(configDir, setup.cwd);
  const known = launchId ?? launchSessionId(options.plan, setup.env, setup.cwd, 'interactive');
  const holder = known ? await claims.claim(known, 'interactive') : undefined;
  if (holder) throw new CccError('SESSION_SUPERVISED', claimedMessage(known!, holder), { data: { sessionId: known!, pid: holder.pid } });
  setup = { ...setup, claims };
  const early = options.observe ? await openSession(setup) : undefined;
  const observer = early ? await startObserver(early, command, size, options.stderr) : undefined;

  // claude's start is over at its first keystroke or its first stop (each aborts this), at its exit,
  // or SETTLE_MS after the spawn (at once with observers): then the session's own start may begin.
  const claudeStarted = new AbortController();
  // The stop channel is there before the agent (the hook's environment names it); a stop waits
  // for the session's graph. Nothing below awaits before `graph` exists, so no stop can come first.
  const channel = await startStopChannel({
    dir: cccDir(configDir),
    onStop: async (input, hookGone) => {
      claudeStarted.abort();
      return (await graph).answer(input, hookGone);
    },
    onError: (error) => logError(`stop channel: ${error.message}`),
  });
  const timeout = hookTimeoutSeconds(
    setup.pipeline.map((entry) => entry.timeoutSeconds),
    config.supervisor.limit_wait_minutes,
  );
  // From the spawn on, claude's TUI owns the terminal: a warning ccc has for the user (a log or
  // state write that failed) waits for the terminal to be the user's again, shown meanwhile as an
  // event once the session is open (the title, observers).
  let opened: SupervisorSession | undefined;
  const releaseWarnings = holdWriteWarnings((line) => opened?.emit(event({ kind: 'error', message: line })));
  const hook = stopHookSettings({ argv: [...selfCommand(), 'supervisor-hook', '--proxy'], timeoutSeconds: timeout });
  const spawned = startAgentProxy({
    command: config.claude.command,
    args: withLaunchSettings(
      [...(launchId ? ['--session-id', launchId] : []), ...setup.claudeArgs],
      (theirs) => ({ ...hook, statusLine: recordingStatusLine(statusFile, userStatusLine(setup.env, setup.cwd, theirs)) }),
      setup.cwd,
    ),
    cwd: setup.cwd,
    env: supervisedAgentEnv(setup.env, config.supervisor.max_iterations, { [SOCKET_ENV]: channel.socketPath, [TOKEN_ENV]: channel.token }),
    // Observers may attach: the output is copied only while one watches, the tail kept for joiners.
    tailBytes: observer?.tailBytes ?? 0,
  });

  // stdin$ ─► recorder, from the first keystroke (also those typed while the session loads); the
  // byte path's errors ─► the session's log. Subscribed as the byte path resolves: nothing is missed.
  const recorder = new InputRecorder();
  const fromTheStart = settledValue(
    spawned.then((proxy) => [
      proxy.stdin$.subscribe((chunk) => {
        recorder.record(chunk);
        claudeStarted.abort();
      }),
      proxy.errors$.subscribe(logError),
    ]),
  );
  // The record of a running session (`sessions/<pid>.json`) is there from the start: tools list it.
  const running = spawned.then(() => registerRunning(setup, command, observer, launchId));
  // The session's own modules load once the agent runs (or could not start) and has had its start.
  const session = spawned.then(async (proxy) => {
    void proxy.exit.then(() => claudeStarted.abort());
    await proxy.pid;
    await aborted(AbortSignal.any([claudeStarted.signal, AbortSignal.timeout(observer ? 0 : SETTLE_MS)]));
    return (opened = early ?? (await openSession(setup)));
  });
  const graph = Promise.all([session, spawned, running]).then(([s, proxy, r]) =>
    sessionGraph(s, { proxy, observer, recorder, running: r, launchId: launchId ?? options.plan.resumedId, stderr: options.stderr }),
  );
  function logError(message: string): void {
    session.then(
      (s) => s.logger.error(message),
      () => {},
    );
  }

  let received: ReturnType<typeof firstSignal> | undefined;
  let ending: InteractiveEnding | undefined;
  try {
    // Once the agent runs, a signal ccc receives is passed on to it (agent-proxy.ts's listeners, so
    // listening too changes nothing); noted here so that the log says who ended the agent.
    await spawned;
    received = firstSignal(FORWARDED_SIGNALS);
    const [proxy, current, wired] = await Promise.all([spawned, session, graph]);
    const exit = await proxy.exit;
    const code = exit.signal ? 128 + exit.signal : exit.exitCode;
    // An agent ended by a signal has no exit code of its own (the relay reports 0 beside the signal).
    current.logger.info('agent exited', { exit_code: exit.signal ? null : exit.exitCode, signal: exit.signal ?? null });
    ending = interactiveEnding({ exit, exitCode: code, received: received.signal, lastStop: wired.lastStop() });
    current.endedAs(ending);
    current.emit(event({ kind: 'end', exit_code: code }));
    return code;
  } catch (error) {
    (await settledValue(session))?.endedAs({ mode: 'interactive', how: failureText(error), exitCode: isCccError(error) ? error.exitCode : 1, level: 'error' });
    throw error;
  } finally {
    received?.stop();
    // The one teardown, in this order. The agent is gone: a review still running is cancelled
    // (`end()` aborts `session.signal`) and settles before anything else goes.
    const [current, wired, subscriptions, record] = await Promise.all([settledValue(session), settledValue(graph), fromTheStart, settledValue(running)]);
    current?.end();
    await wired?.stops.close();
    for (const s of subscriptions ?? []) s.unsubscribe();
    // The frame tail, the observer's wiring, the title (and the write warnings held while the TUI
    // owned the terminal, shown now that the terminal is the user's again).
    wired?.unsubscribe();
    releaseWarnings();
    await record?.remove();
    await recorder.flush();
    await channel.close();
    // On a config disk gone read-only or full the file stays (named by this pid, it misleads no one); the run's ending is not the disk's.
    await fs.promises.rm(statusFile, { force: true }).catch(() => {});
    observer?.detach();
    await observer?.close();
    await current?.close();
    claims.releaseAll();
    // The URL printed before the TUI started has scrolled away under it.
    if (observer) options.stderr.write(`Observer: ${observer.url} (closed with the session)\n`);
    // After the TUI is gone and the terminal restored: the reporters' last words (what this session's reviews cost).
    await current?.reporters.close({ sessionId: current.sessionId });
    // claude's own last line says `claude --resume <id>`, which would leave supervision. Said only
    // for a session claude saved (one the user never wrote to has nothing to continue).
    const id = current?.sessionId;
    const saved = !!id && !!wired && fs.existsSync(wired.transcriptOf(id));
    if (saved) options.stderr.write(`ccc: continue this session under supervision with \`ccc --supervisor --resume ${id}\`\n`);
    // ccc's last line: an exit code of 0 after /exit must not read as done.
    if (saved && ending?.unconfirmed) options.stderr.write(`ccc: ${inertText(ending.unconfirmed)}\n`);
  }
}

interface SessionGraph {
  stops: StopPipe;
  /** The hook's answer: a Stop is decided in turn (`stops`); a StopFailure is answered at once, a refusal on a limit waited out. */
  answer(input: string, hookGone: AbortSignal): Promise<string>;
  /** The last stop's outcome in words, for how the run ended. */
  lastStop(): string | undefined;
  /** Where a session's transcript is (as its stop named it, else claude's place for the project). */
  transcriptOf(sessionId: string): string;
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
}

/**
 * The session's streams, wired once the session is open (docs/design/streams.md):
 *
 *   sessionId$ ─► the input log and the running-session record follow the current session
 *   sessionId$ ─ switchMap(tail that transcript) ─► frames$ ─► session.onFrame
 *   events$ ─► the terminal title
 *   stop$ ─ concatMap(decide) ─► verdict$ ─► the hook's answer (interactive-stops.ts)
 */
async function sessionGraph(session: SupervisorSession, edges: GraphEdges): Promise<SessionGraph> {
  const [
    { Subscription },
    { stopPipe },
    { reviewStop },
    { reviewTitleUpdater },
    { agentFrames },
    { tailTranscript },
    { transcriptPathFor },
    { parseStopInput },
    { hookOutput },
    { inputLogPath },
    { limitWaits, reviewWithinLimits },
    { AgentLimitWait },
    { DeniedTurns, deniedInTurn },
    { reportersFor },
  ] = await Promise.all([
    import('rxjs'),
    import('./interactive-stops.js'),
    import('./review-stop.js'),
    import('./review-status.js'),
    import('./agent-frames.js'),
    import('../frames/transcript-tail.js'),
    import('../frames/transcript.js'),
    import('../stop/stop-event.js'),
    import('../stop/hook-output.js'),
    import('../state/paths.js'),
    import('./limit-wait.js'),
    import('./agent-limit-wait.js'),
    import('./permission-denials.js'),
    import('../supervise/reporters.js'),
  ]);
  const { proxy, observer, recorder, running } = edges;
  const graph = new Subscription();
  // The title, observers and the summary line hear the session's events and frames (attached
  // before the transcript tail starts: no frame is missed) until the run closes them.
  const title = reviewTitleUpdater((bytes) => proxy.inject(bytes));
  for (const reporter of await reportersFor({ mode: 'interactive', title, stderr: edges.stderr, tally: session, observer })) session.reporters.add(reporter);
  void proxy.pid.then((pid) => session.logger.info('interactive session started', { agent_pid: pid ?? null, proxy: proxy.kind }));

  // The session id is known at launch (ours, or `--resume <id>`), else from the first stop; a
  // `/clear` or `/resume` inside the TUI moves the user to another session, which the next stop names.
  graph.add(
    session.sessionId$.subscribe((id) => {
      recorder.bind(inputLogPath(session.configDir, id));
      running.update({ session_id: id });
    }),
  );
  if (edges.launchId) session.setSessionId(edges.launchId);

  // Where each session's transcript is, as its stop said: a `--worktree` session's is not under ccc's own directory.
  const transcripts = new Map<string, string>();
  const transcriptOf = (id: string) => transcripts.get(id) ?? transcriptPathFor(session.env, session.cwd, id);
  // The tail's reader is the one the session's stops read on (stop-context.ts): a stop reads only what the tail has not, and its frames reach the window first.
  const frames = agentFrames(session.sessionId$, (id) => tailTranscript(session.transcripts.follow(id, transcriptOf(id)), session.signal));
  graph.add(frames.frames$.subscribe((frame) => session.onFrame(frame)));
  graph.add(() => frames.stop());

  // One schedule for the session's waits on the model's limits: its stops' reviews (one at a time)
  // and the agent's refused turns (the agent is idle while a review runs, and the other way round).
  const waits = limitWaits({ retrySeconds: session.config.supervisor.limit_retry_seconds, maxMinutes: session.config.supervisor.limit_wait_minutes });
  const waitDeps = { logger: session.logger, emit: (e: SupervisorEvent) => session.emit(e), waits, maxMinutes: session.config.supervisor.limit_wait_minutes };
  const agentLimit = new AgentLimitWait({ ...waitDeps, signal: session.signal, type: (text) => proxy.sendToAgent(Buffer.from(text)) });

  if (observer) graph.add(connectObserver(observer, proxy, (data) => agentLimit.onInput(data)));

  // Typing hands the title back to claude, and the turn back to the user (a wait on the agent's
  // limit ends); the terminal's replies to claude's queries are not typing.
  graph.add(
    proxy.stdin$.subscribe((chunk) => {
      const typed = new TerminalReplyFilter().filter(chunk);
      if (typed.length === 0) return;
      title.onInput();
      agentLimit.onInput(typed);
    }),
  );
  graph.add(() => title.stop());

  // Plugins start with the agent, not before it; one that throws is logged, as at the session's end.
  await session.start().catch((error: Error) => session.logger.warn(`checker onSessionStart threw: ${error.message}`));
  // The project before the user's first prompt: a fresh review is given the change since (task-baseline.ts).
  void session.recordTaskStart();

  let lastStop: string | undefined;
  // The agent's turns in a row with calls the permission settings refused, per session (the rule headless follows too).
  const denials = new Map<string, InstanceType<typeof DeniedTurns>>();
  const decide = async ({ input, hookGone }: Stop): Promise<string> => {
    const parsed = parseStopInput(input);
    if (!parsed.ok) {
      session.logger.warn(`malformed Stop hook input: ${parsed.error}`);
      return '';
    }
    if (parsed.value.transcriptPath) transcripts.set(parsed.value.sessionId, parsed.value.transcriptPath);
    session.setSessionId(parsed.value.sessionId);
    // A session the user moved to inside the TUI (`/resume`) that another live ccc supervises: that ccc reviews it, not this one.
    const holder = await session.claim(parsed.value.sessionId, 'interactive');
    if (holder) {
      const claimed = claimedMessage(parsed.value.sessionId, holder);
      lastStop = `not reviewed: ${claimed}`;
      session.logger.warn(`stop not reviewed: ${claimed}`);
      session.emit(event({ kind: 'error', message: `stop not reviewed: ${claimed}` }));
      return JSON.stringify({ systemMessage: inertText(`ccc: stop not reviewed: ${claimed}`) });
    }
    // Esc or Ctrl-C in the TUI makes claude kill its running Stop hook (pinned in
    // test/loop/review-cancel.test.ts): the hook hanging up cancels the review, as the agent's exit does.
    const signal = AbortSignal.any([hookGone, session.signal]);
    // A review the model refused on a limit is waited out and retried within this stop, the hook
    // kept alive meanwhile; Esc in the TUI (the user taking over) or the agent's exit ends the wait.
    let decision;
    try {
      decision = await reviewWithinLimits(
        () =>
          reviewStop(parsed.value, {
            ...session.reviewDeps(),
            signal,
            recentFrames: (id, atLeast) => frames.recent(id, atLeast),
            blockCap: supervisedBlockCap(session.config.supervisor.max_iterations),
          }),
        { ...waitDeps, signal },
      );
    } catch (error) {
      // The project went away (or the like): the stop goes through unreviewed, and the user sees why where claude shows hook messages.
      if (!isCccError(error)) throw error;
      lastStop = `not reviewed: ${error.message}`;
      session.logger.error(`stop not reviewed: ${error.message}`, { code: error.code });
      session.emit(event({ kind: 'error', message: error.message }));
      return JSON.stringify({ systemMessage: inertText(`ccc: stop not reviewed: ${error.message}`) });
    }
    // A reviewed turn: the calls the settings refused in it are named, and repeated ones end supervision for the grant.
    let note: string | undefined;
    if (decision.action === 'block' || (decision.action === 'allow' && decision.verdict)) {
      const id = parsed.value.sessionId;
      const turns = denials.get(id) ?? new DeniedTurns();
      denials.set(id, turns);
      const denied = deniedInTurn(await frames.recent(id, 0));
      turns.record(denied.tools, denied, decision.iteration);
      note = turns.message();
      decision = turns.apply(decision);
      if (decision.action === 'allow' && decision.reason === 'permission-denied') {
        session.logger.warn(`stopped supervising: ${decision.message}`, { iteration: decision.iteration, tools: denied.tools.join(' ') });
        session.emit(event({ kind: 'stopped', reason: 'permission-denied', message: decision.message }));
        note = undefined; // the stop's own message names the grant
      } else if (note) {
        session.logger.warn(note, { tools: denied.tools.join(' ') });
        session.emit(event({ kind: 'error', message: note }));
      }
    }
    lastStop = decisionText(decision);
    // A /goal that sends the agent back keeps it working as a block or a wind-down does.
    session.emit(event({ kind: 'phase', phase: decision.action === 'allow' && decision.reason !== 'goal' ? 'idle' : 'agent' }));
    return hookOutput(decision, { showVerdict: true, ...(note ? { note: inertText(note) } : {}) });
  };
  const stops = stopPipe(decide);
  const answer = (input: string, hookGone: AbortSignal): Promise<string> => {
    const parsed = parseStopInput(input);
    if (!parsed.ok || parsed.value.raw.hook_event_name !== 'StopFailure') return stops.answer(input, hookGone);
    agentLimit.onStopFailure(parsed.value);
    return Promise.resolve('');
  };
  return { stops, answer, lastStop: () => lastStop, transcriptOf, unsubscribe: () => graph.unsubscribe() };
}

/** The byte path's copies ─► the observer hub; observers' input (also told to `onInput`) and the terminal's size ─► back. */
function connectObserver(observer: Observer, proxy: BytePath, onInput: (data: Buffer) => void): () => void {
  const subscriptions = [
    proxy.ptyOutput$.subscribe((chunk) => observer.publishPty(chunk)),
    proxy.gap$.subscribe((lost) => observer.outputGap(lost)),
    // Output is copied only while someone watches; the tail kept meanwhile is a joiner's screen.
    proxy.tail$.subscribe((tail) => observer.replaceTail(tail)),
    proxy.resize$.subscribe(({ cols, rows }) => observer.resize(cols, rows)),
  ];
  const offInput = observer.onInput((data) => {
    proxy.sendToAgent(data);
    onInput(data);
  });
  observer.setOutputSource(proxy);
  return () => {
    for (const s of subscriptions) s.unsubscribe();
    offInput();
  };
}

async function registerRunning(
  setup: SupervisorSessionOptions,
  command: string[],
  observer: Observer | undefined,
  launchId: string | undefined,
): Promise<RunningSession> {
  const { registerRunningSession } = await import('./running-session.js');
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
  const { SupervisorSession } = await import('./supervisor-session.js');
  return new SupervisorSession(setup);
}

async function startObserver(
  session: SupervisorSession,
  command: string[],
  size: { cols: number; rows: number },
  stderr: NodeJS.WritableStream,
): Promise<Observer> {
  const { observeSession } = await import('./observe-session.js');
  return observeSession(session, { command, size, stderr, awaitOutputSource: true });
}
