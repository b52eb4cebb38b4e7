/**
 * The entry of `ccc [provider] --supervisor …`: parse the options, decide the mode and the task as
 * claude would (run-mode.ts), resolve the configuration, check everything a user could have wrong
 * before anything starts (config, claude flags that cannot be supervised, SUPERVISOR.md, the
 * claude executable, the checkers and plugins: each a clear error, exit 2), then run the
 * interactive or headless loop. Each mode loads its own modules: the interactive one starts the
 * agent before the rest of the session (see interactive.ts).
 */
import crypto from 'node:crypto';
import { parseSupervisorArgs } from './supervisor-args.js';
import { strayMarkerWarnings } from './stray-markers.js';
import { CccError } from '../errors.js';
import { buildPipeline } from '../checkers/registry.js';
import { requireReviewerPrompts } from '../checkers/supervisor-prompt.js';
import { loadConfig } from '../config/load.js';
import { describeOrigin } from '../config/validate.js';
import { requireClaude } from '../process/resolve-command.js';
import { requireSupportedClaude } from '../claude/claude-check.js';
import { requireUsableConfigDir } from '../state/config-dir-check.js';
import { moduleCacheDir } from '../state/paths.js';
import { checkSettingsPaths } from '../settings/settings-file.js';
import { reportTargets, type ReportTargets } from '../reporters/ci/report-targets.js';
import { chooseRunMode } from '../loop/run-mode.js';
import { sessionPlan, type SessionPlan } from '../sessions/session-flags.js';
import { inertText } from '../pty/inert-text.js';
import type { SupervisorSessionOptions } from '../sessions/supervisor-session.js';

export interface LaunchIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A terminal on stdin and stdout means interactive; otherwise the task may come on stdin. */
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  openStdin: () => NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Provider env and claude args contributed by `ccc <provider>`. */
  providerEnv?: Record<string, string>;
  extraClaudeArgs?: string[];
}

export async function launchSupervised(argv: readonly string[], io: LaunchIo): Promise<number> {
  const args = parseSupervisorArgs(argv);
  const mode = await chooseRunMode({
    print: args.task,
    json: args.json,
    stdinIsTTY: io.stdinIsTTY,
    openStdin: io.openStdin,
    stdoutIsTTY: io.stdoutIsTTY,
    stderr: io.stderr,
  });
  // The interactive loop's modules load while the checks below wait on the disk and on claude.
  const interactive = mode.mode === 'interactive' ? import('../drivers/interactive.js') : undefined;
  interactive?.catch(() => {});
  const env = { ...io.env, ...io.providerEnv };
  for (const line of strayMarkerWarnings(env)) io.stderr.write(line);
  const reports = reportTargets(args.reports ?? [], { env, cwd: io.cwd, headless: mode.mode === 'headless' });
  const resolved = await loadConfig({ cwd: io.cwd, env, flags: args.flags, configPath: args.configPath });
  const { config } = resolved;
  const claudeFile = requireClaude(config.claude.command, env, io.cwd);
  // The config dir's write probe waits on the disk (an fsync) while claude's version is read (a
  // config dir that is missing or has no room for ccc's folders throws before that read starts); an
  // unusable config dir is the error shown when both fail, as it is the one to fix first.
  const [usable, supported] = await Promise.allSettled([
    requireUsableConfigDir(resolved.configDir, env),
    // A claude ccc cannot supervise (too old, or no readable version) fails in confusing ways mid-run: refused here, exit 2.
    requireSupportedClaude({ command: config.claude.command, file: claudeFile, cwd: io.cwd, env, configDir: resolved.configDir }),
  ]);
  if (usable.status === 'rejected') throw usable.reason;
  if (supported.status === 'rejected') throw supported.reason;
  config.claude.command = claudeFile;
  requireReviewerPrompts(resolved, io.cwd, env.HOME);
  // TypeScript plugins are transpiled once per content, like the config (before the agent starts: a broken plugin is exit 2).
  const claudeArgs = [...(io.extraClaudeArgs ?? []), ...config.claude.args, ...args.claudeArgs];
  checkSettingsPaths(claudeArgs, io.cwd);
  const plan = sessionPlan(claudeArgs, mode.mode);
  const pipeline = await buildPipeline({
    config,
    sources: resolved.sources,
    cwd: io.cwd,
    moduleCacheDir: () => moduleCacheDir(resolved.configDir),
    checkersFrom: describeOrigin('supervisor.checkers', resolved),
  });
  await requireReporters(config.reporters, io.cwd);
  io.stderr.write('Supervisor mode enabled\n');
  const setup = { resolved, pipeline, cwd: io.cwd, env, claudeArgs };
  const observe = args.observe !== undefined;
  if (mode.mode === 'interactive') {
    const { runInteractive } = await (interactive ?? import('../drivers/interactive.js'));
    return runInteractive(setup, { observe, plan, stderr: io.stderr });
  }
  return runHeadlessSession(setup, { task: mode.task, plan, json: args.json, observe, reports }, io);
}

/**
 * Headless: the session another live ccc supervises is refused before claude starts; then
 * `sessions/<pid>.json` while it runs, and observers see the text ccc prints. Everything it
 * acquires joins the run's lifetime and is released in reverse, on every path.
 */
async function runHeadlessSession(
  setup: SupervisorSessionOptions,
  options: { task: string; plan: SessionPlan; json: boolean; observe: boolean; reports: ReportTargets },
  io: LaunchIo,
): Promise<number> {
  const [{ SupervisorSession }, { Run }, { launchSessionId, withOwnSessionId }] = await Promise.all([
    import('../sessions/supervisor-session.js'),
    import('../loop/run.js'),
    import('../sessions/session-flags.js'),
  ]);
  const session = new SupervisorSession(setup);
  const plan = withOwnSessionId(options.plan, crypto.randomUUID());
  // One supervisor per session: the launch's session is known now (ours, or the one the user's flags name).
  const launchId = launchSessionId(plan, session.env, io.cwd);
  const run = new Run({
    mode: 'headless',
    configDir: session.configDir,
    cwd: io.cwd,
    ...(launchId ? { sessionId: launchId } : {}),
    warn: (message) => session.logger.warn(message),
  });
  run.hold(session);
  return run.using(async () => {
    const { registerRunningSession } = await import('../sessions/running-session.js');
    const { runHeadless } = await import('../drivers/headless.js');
    const { interruptOnSignals } = await import('../drivers/headless-signals.js');
    const command = [session.config.claude.command, '-p', options.task];
    // The observer (and its WebSocket server) loads only when asked for.
    const observing = options.observe ? await import('../loop/observe-session.js') : undefined;
    const observer = observing ? await observing.observeSession(session, { command, size: { cols: 120, rows: 40 }, stderr: io.stderr }) : undefined;
    if (observer)
      run.lifetime.add(async () => {
        observer.detach();
        await observer.close();
      });
    // Observers see the text ccc prints while the run goes (the reports' last words come after they are gone).
    const publish = (chunk: Buffer) => observer?.publishPty(chunk);
    const shown = observing && observer ? { stdout: observing.teeStream(io.stdout, publish), stderr: observing.teeStream(io.stderr, publish) } : io;
    const { reportersFor } = await import('../reporters/reporters.js');
    // A report file that cannot be written is a usage error (exit 2) before the session starts.
    const own = session.ownReporters((message) => void shown.stderr.write(`ccc: WARN: ${inertText(message)}\n`));
    const reporting = { mode: 'headless', json: options.json, shown, stdout: io.stdout, stderr: io.stderr, reports: options.reports, observer, own } as const;
    run.report(await reportersFor({ ...reporting, env: session.env, configDir: session.configDir }));
    await session.start();
    // A second signal ends ccc at once until the record is gone (released after it: joined before it).
    run.lifetime.add(interruptOnSignals(session));
    const running = registerRunningSession(session.configDir, { pid: process.pid, cwd: io.cwd, command, observer_url: observer?.url });
    run.lifetime.add(() => running.remove());
    const onId = session.sessionId$.subscribe((id) => running.update({ session_id: id }));
    run.lifetime.add(() => onId.unsubscribe());
    return (run.exitCode = await runHeadless(run, session, { task: options.task, plan, json: options.json, stderr: shown.stderr }));
  });
}

/** A reporter the config names that cannot be found is a usage error before the agent starts; one that fails later only warns. */
async function requireReporters(reporters: readonly string[], cwd: string): Promise<void> {
  if (reporters.length === 0) return;
  const { BUILT_IN_REPORTERS } = await import('../reporters/built-in.js');
  if (reporters.every((name) => BUILT_IN_REPORTERS.includes(name))) return;
  const { reporterProblem } = await import('../reporters/reporter-module.js');
  for (const name of reporters) {
    const problem = await reporterProblem(name, cwd);
    if (problem) throw new CccError('CONFIG_INVALID', problem, { data: { key: 'reporters', value: name } });
  }
}
