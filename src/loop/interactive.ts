/**
 * `ccc --supervisor [claude args]`: the real Claude Code TUI in a pty behind the transparent
 * proxy. Stops arrive through the Stop hook injected for this launch, which calls back over the
 * private stop channel; each is decided by `reviewStop`, and the answer goes back to claude as the
 * hook's output (a block with the feedback, or nothing). The agent's exit code is ours.
 *
 * The agent starts first (docs/architecture.md, "Start-up"): before the spawn only what it needs (the stop channel, the
 * hook settings, the environment; and with `--observe` the observer, whose URL must be printed
 * before the TUI covers the screen). The session object, its log, the running-session record,
 * the transcript tail (it reads from offset 0), the title updater and plugins' `onSessionStart`
 * follow once claude has had its start to itself: at the first keystroke, the first stop, the
 * agent's exit, or SETTLE_MS after the spawn, whichever comes first (with observers at once).
 * Stops wait for the session. The streams are laid out in docs/streams.md.
 */
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { selfCommand, stopHookSettings, withLaunchSettings } from '../stop/launch-settings.js';
import { SOCKET_ENV, startStopChannel, TOKEN_ENV } from '../stop/stop-channel.js';
import { startAgentProxy } from '../pty/agent-proxy.js';
import type { BytePath } from '../pty/byte-path.js';
import { TerminalReplyFilter } from '../input/terminal-replies.js';
import { InputRecorder } from '../input/input-recorder.js';
import { cccDir } from '../state/paths.js';
import { claimedMessage, SessionClaims } from '../state/session-claims.js';
import { CccError, isCccError } from '../errors.js';
import { inertText } from '../pty/inert-text.js';
import { supervisedAgentEnv, supervisedBlockCap } from './agent-env.js';
import { hookTimeoutSeconds } from './hook-timeout.js';
import { event } from './events.js';
import { reviewSummary } from './review-summary.js';
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

export async function runInteractive(setup: SupervisorSessionOptions, options: InteractiveOptions): Promise<number> {
  const { config, configDir } = setup.resolved;
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
  if (holder) throw new CccError('SESSION_SUPERVISED', claimedMessage(known!, holder), { data: { sessionId: known, pid: holder.pid } });
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
      return (await graph).stops.answer(input, hookGone);
    },
    onError: (error) => logError(`stop channel: ${error.message}`),
  });
  const timeout = hookTimeoutSeconds(
    setup.pipeline.map((entry) => entry.timeoutSeconds),
    config.supervisor.limit_wait_minutes,
  );
  const hook = stopHookSettings({ argv: [...selfCommand(), 'supervisor-hook', '--proxy'], timeoutSeconds: timeout });
  const spawned = startAgentProxy({
    command: config.claude.command,
    args: withLaunchSettings([...(launchId ? ['--session-id', launchId] : []), ...setup.claudeArgs], hook, setup.cwd),
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
    return early ?? openSession(setup);
  });
  const graph = Promise.all([session, spawned, running]).then(([s, proxy, r]) =>
    sessionGraph(s, { proxy, observer, recorder, running: r, launchId: launchId ?? options.plan.resumedId }),
  );
  function logError(message: string): void {
    session.then(
      (s) => s.logger.error(message),
      () => {},
    );
  }

  try {
    const [proxy, current] = await Promise.all([spawned, session, graph]);
    const exit = await proxy.exit;
    const code = exit.signal ? 128 + exit.signal : exit.exitCode;
    // An agent ended by a signal has no exit code of its own (the relay reports 0 beside the signal).
    current.logger.info('agent exited', { exit_code: exit.signal ? null : exit.exitCode, signal: exit.signal ?? null });
    current.emit(event({ kind: 'end', exit_code: code }));
    return code;
  } finally {
    // The one teardown, in this order. The agent is gone: a review still running is cancelled
    // (`end()` aborts `session.signal`) and settles before anything else goes.
    const [current, wired, subscriptions, record] = await Promise.all([settledValue(session), settledValue(graph), fromTheStart, settledValue(running)]);
    current?.end();
    await wired?.stops.close();
    for (const s of subscriptions ?? []) s.unsubscribe();
    // The frame tail, the observer's wiring, the title (and the write warnings held while the TUI
    // owned the terminal, shown now that the terminal is the user's again).
    wired?.unsubscribe();
    await record?.remove();
    await recorder.flush();
    await channel.close();
    observer?.detach();
    await observer?.close();
    await current?.close();
    claims.releaseAll();
    // The URL printed before the TUI started has scrolled away under it.
    if (observer) options.stderr.write(`Observer: ${observer.url} (closed with the session)\n`);
    // After the TUI is gone and the terminal restored: what this session's reviews cost.
    const summary = current && reviewSummary(current.reviews, current.reviewUsage);
    if (summary) options.stderr.write(`ccc: ${summary}\n`);
    // claude's own last line says `claude --resume <id>`, which would leave supervision. Said only
    // for a session claude saved (one the user never wrote to has nothing to continue).
    const id = current?.sessionId;
    if (id && wired && fs.existsSync(wired.transcriptOf(id)))
      options.stderr.write(`ccc: continue this session under supervision with \`ccc --supervisor --resume ${id}\`\n`);
  }
}

interface SessionGraph {
  stops: StopPipe;
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
}

/**
 * The session's streams, wired once the session is open (docs/streams.md):
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
    { holdWriteWarnings },
    { limitWaits, reviewWithinLimits },
    { DeniedTurns, deniedInTurn },
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
    import('../state/write-failure.js'),
    import('./limit-wait.js'),
    import('./permission-denials.js'),
  ]);
  const { proxy, observer, recorder, running } = edges;
  const graph = new Subscription();
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
  const frames = agentFrames(session.sessionId$, (id) => tailTranscript(transcriptOf(id), session.signal, { logger: session.logger }));
  graph.add(frames.frames$.subscribe((frame) => session.onFrame(frame)));
  graph.add(() => frames.stop());

  if (observer) graph.add(connectObserver(observer, proxy));

  const title = reviewTitleUpdater((bytes) => proxy.inject(bytes));
  graph.add(session.events$.subscribe((e) => title.onEvent(e)));
  // Typing hands the title back to claude; the terminal's replies to claude's queries are not typing.
  graph.add(proxy.stdin$.subscribe((chunk) => new TerminalReplyFilter().filter(chunk).length > 0 && title.onInput()));
  // A failed write's warning waits while the TUI owns the terminal (the title and observers show it
  // as an event); the teardown runs once the terminal is the user's again.
  const releaseWarnings = holdWriteWarnings((line) => session.emit(event({ kind: 'error', message: line })));
  graph.add(() => {
    title.stop();
    releaseWarnings();
  });

  // Plugins start with the agent, not before it; one that throws is logged, as at the session's end.
  await session.start().catch((error: Error) => session.logger.warn(`checker onSessionStart threw: ${error.message}`));

  // The agent's turns in a row with calls the permission settings refused, per session (the rule headless follows too).
  const denials = new Map<string, InstanceType<typeof DeniedTurns>>();
  // One schedule for the session's stops (they are reviewed one at a time).
  const waits = limitWaits({ retrySeconds: session.config.supervisor.limit_retry_seconds, maxMinutes: session.config.supervisor.limit_wait_minutes });
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
        { logger: session.logger, emit: (e) => session.emit(e), waits, maxMinutes: session.config.supervisor.limit_wait_minutes, signal },
      );
    } catch (error) {
      // The project went away (or the like): the stop goes through unreviewed, and the user sees why where claude shows hook messages.
      if (!isCccError(error)) throw error;
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
      turns.record(denied.tools, denied);
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
    // A /goal that sends the agent back keeps it working as a block or a wind-down does.
    session.emit(event({ kind: 'phase', phase: decision.action === 'allow' && decision.reason !== 'goal' ? 'idle' : 'agent' }));
    return hookOutput(decision, { showVerdict: true, ...(note ? { note: inertText(note) } : {}) });
  };
  return { stops: stopPipe(decide), transcriptOf, unsubscribe: () => graph.unsubscribe() };
}

/** The byte path's copies ─► the observer hub; observers' input and the terminal's size ─► back. */
function connectObserver(observer: Observer, proxy: BytePath): () => void {
  const subscriptions = [
    proxy.ptyOutput$.subscribe((chunk) => observer.publishPty(chunk)),
    proxy.gap$.subscribe((lost) => observer.outputGap(lost)),
    // Output is copied only while someone watches; the tail kept meanwhile is a joiner's screen.
    proxy.tail$.subscribe((tail) => observer.replaceTail(tail)),
    proxy.resize$.subscribe(({ cols, rows }) => observer.resize(cols, rows)),
  ];
  const offInput = observer.onInput((data) => proxy.sendToAgent(data));
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
