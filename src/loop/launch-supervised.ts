/**
 * The entry of `ccc [provider] --supervisor …`: parse the options, resolve the configuration,
 * check everything a user could have wrong before anything starts (config, SUPERVISOR.md, the
 * claude executable: each a clear error, exit 2), then run the interactive or headless loop.
 */
import { parseSupervisorArgs } from '../cli/supervisor-args.js';
import { buildPipeline } from '../checkers/registry.js';
import { loadSupervisorPrompt } from '../checkers/supervisor-prompt.js';
import { normalizeDeclaration } from '../checkers/registry.js';
import { loadConfig } from '../config/load.js';
import { requireClaude } from '../process/resolve-command.js';
import { requireUsableConfigDir } from '../state/config-dir-check.js';
import { runHeadless } from './headless.js';
import { runInteractive } from './interactive.js';
import { observeSession, teeStream } from './observe-session.js';
import { registerRunningSession } from './running-session.js';
import { SupervisorSession } from './supervisor-session.js';

export interface LaunchIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Provider env and claude args contributed by `ccc <provider>`. */
  providerEnv?: Record<string, string>;
  extraClaudeArgs?: string[];
}

export async function launchSupervised(argv: readonly string[], io: LaunchIo): Promise<number> {
  const args = parseSupervisorArgs(argv);
  const env = { ...io.env, ...io.providerEnv };
  const resolved = await loadConfig({ cwd: io.cwd, env, flags: args.flags, configPath: args.configPath });
  const { config } = resolved;
  config.claude.command = requireClaude(config.claude.command, env, io.cwd);
  requireUsableConfigDir(resolved.configDir, env);
  for (const declaration of config.supervisor.checkers) {
    const { use, options } = normalizeDeclaration(declaration);
    if (use === 'claude') loadSupervisorPrompt({ cwd: io.cwd, promptPath: (options.prompt_path as string | undefined) ?? config.supervisor.prompt_path, home: env.HOME });
  }
  const pipeline = await buildPipeline({ config, cwd: io.cwd });
  io.stderr.write('Supervisor mode enabled\n');
  const session = new SupervisorSession({
    resolved,
    pipeline,
    cwd: io.cwd,
    env,
    claudeArgs: [...(io.extraClaudeArgs ?? []), ...config.claude.args, ...args.claudeArgs],
  });
  await session.start();
  try {
    const observe = args.observe !== undefined;
    if (args.task === undefined) return await runInteractive(session, { observe, stderr: io.stderr });
    return await runHeadlessSession(session, { task: args.task, json: args.json, observe }, io);
  } finally {
    await session.close();
  }
}

/** Headless: `sessions/<pid>.json` while it runs, and observers see the text ccc prints. */
async function runHeadlessSession(session: SupervisorSession, options: { task: string; json: boolean; observe: boolean }, io: LaunchIo): Promise<number> {
  const command = [session.config.claude.command, '-p', options.task];
  const observer = options.observe ? await observeSession(session, { command, size: { cols: 120, rows: 40 }, stderr: io.stderr }) : undefined;
  const running = registerRunningSession(session.configDir, { pid: process.pid, cwd: io.cwd, command, observer_url: observer?.url });
  const onId = session.sessionId$.subscribe((id) => running.update({ session_id: id }));
  const publish = (chunk: Buffer) => observer?.publishPty(chunk);
  try {
    return await runHeadless(session, {
      task: options.task,
      json: options.json,
      stdout: observer ? teeStream(io.stdout, publish) : io.stdout,
      stderr: observer ? teeStream(io.stderr, publish) : io.stderr,
    });
  } finally {
    onId.unsubscribe();
    observer?.detach();
    await observer?.close();
    await running.remove();
  }
}
