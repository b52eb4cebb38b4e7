/**
 * The entry of `ccc kanban <kanban file>`: resolve the configuration, check everything a user could
 * have wrong before any agent starts (config, kanban file, current task, role prompts, claude, and
 * for `--supervise` the checkers' prompt: each a clear error, exit 2), take the kanban lock, run
 * the workflow, and report its outcome. Returns the exit code.
 */
import path from 'node:path';
import { buildPipeline } from '../checkers/registry.js';
import { requireReviewerPrompts } from '../checkers/supervisor-prompt.js';
import { loadConfig } from '../config/load.js';
import { describeOrigin } from '../config/validate.js';
import type { LogLevel, ResolvedConfig } from '../config/types.js';
import { createLogger } from '../log/logger.js';
import { ExitCode, isCccError } from '../errors.js';
import { failureText, logRunEnded, type RunEnding } from '../loop/run-ending.js';
import { SupervisorSession } from '../sessions/supervisor-session.js';
import { requireClaude } from '../process/resolve-command.js';
import { requireSupportedClaude } from '../claude/claude-check.js';
import { cccDir } from '../state/paths.js';
import type { AgentCallDeps } from './agent-call.js';
import { boardWarnings } from './board-check.js';
import { claudeAgentRunner } from './agent-runner.js';
import { fileRef, readKanbanFile, taskRef, type FileRef } from './kanban-file.js';
import { lockKanban } from './kanban-lock.js';
import { stderrProgress } from './progress.js';
import { loadRolePrompts } from './role-prompts.js';
import { eventLog } from './event-log.js';
import { readTaskHeader } from './task-file.js';
import { supervisedReview } from '../drivers/kanban-review.js';
import { Run } from '../loop/run.js';
import { runWorkflow } from './workflow.js';

export interface KanbanArgs {
  file: string;
  supervise: boolean;
  maxRetries?: number;
  rolesDir?: string;
  configPath?: string;
  logLevel?: LogLevel;
  /** After `--`: passed to every agent, after `claude.args`. */
  claudeArgs: string[];
}

export interface KanbanIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Progress and the outcome (stderr). */
  write: (text: string) => void;
  /** Ctrl-C: stops the running agent; the kanban file keeps the state before it. */
  signal?: AbortSignal;
}

export async function runKanban(args: KanbanArgs, io: KanbanIo): Promise<number> {
  const resolved = await loadConfig({
    cwd: io.cwd,
    env: io.env,
    configPath: args.configPath,
    flags: { kanban: { max_retries: args.maxRetries, roles_dir: args.rolesDir }, supervisor: { log_level: args.logLevel } },
  });
  for (const warning of resolved.warnings) io.write(`ccc: warning: ${warning}\n`);
  const { config } = resolved;
  const kanban = fileRef(args.file, io.cwd);
  const say = (text: string) => io.write(`ccc kanban: ${text}\n`);
  if (!(await preflight(kanban, io.cwd, (warning) => say(`warning: ${warning}`)))) {
    say(`${kanban.display}: nothing to do (the workflow is complete or current is null).`);
    return 0;
  }
  const prompts = await loadRolePrompts({
    rolesDir: config.kanban.roles_dir,
    cwd: io.cwd,
    setBy: resolved.sources['kanban.roles_dir'] ?? 'default',
    trusted: config.trusted_dirs,
  });
  const claudeCommand = requireClaude(config.claude.command, io.env, io.cwd);
  await requireSupportedClaude({ command: config.claude.command, file: claudeCommand, cwd: io.cwd, env: io.env, configDir: resolved.configDir });
  const claudeArgs = [...config.claude.args, ...args.claudeArgs];
  const logger = createLogger({
    file: path.join(cccDir(resolved.configDir), 'kanban.log'),
    level: config.supervisor.log_level,
    module: 'kanban',
    fields: { kanban: kanban.path },
  });
  // The board's run: with --supervise it holds the reviews' session, claims each card's session
  // for its reviews, and closes the reviews' reporters (the Review Limit Event the stop message
  // points at) before the session.
  const run = new Run({ mode: 'kanban', configDir: resolved.configDir, cwd: io.cwd, warn: (warning) => say(`warning: ${warning}`) });
  let ending: RunEnding | undefined;
  // kanban.log's last line for this run, once the lock is released.
  run.lifetime.add(() => ending && logRunEnded(logger, ending));
  return run.using(async () => {
    const lock = await lockKanban(kanban, { onNote: say, onWarning: (warning) => say(`warning: ${warning}`) });
    run.lifetime.add(() => lock.release());
    try {
      const session = args.supervise ? await supervisorSession(resolved, io, claudeArgs) : undefined;
      if (session) run.hold(session);
      const progress = stderrProgress({ write: io.write });
      const call: AgentCallDeps = {
        runner: claudeAgentRunner({ command: claudeCommand, cwd: io.cwd, env: session ? session.agentEnv() : io.env, logger, tracker: lock }),
        maxRetries: config.kanban.max_retries,
        log: eventLog(kanban),
        progress,
        logger,
        claudeCommand,
        signal: io.signal,
      };
      say(
        `${kanban.display}${session ? ' (supervised: every Implementor answer is reviewed)' : ''}; role prompts: ${Object.entries(prompts)
          .map(([role, p]) => `${role} ${p.source}`)
          .join(', ')}`,
      );
      const outcome = await runWorkflow({
        kanban,
        cwd: io.cwd,
        prompts,
        claudeArgs,
        call,
        progress,
        logger,
        ...(session ? { review: supervisedReview({ session, run, call, write: io.write }) } : {}),
      });
      const board = { how: outcome.message, exitCode: outcome.exitCode, level: outcome.exitCode === 0 ? ('info' as const) : ('warn' as const) };
      ending = { mode: 'kanban', ...board };
      run.endAs(board);
      say(outcome.message);
      return outcome.exitCode;
    } catch (error) {
      ending = { mode: 'kanban', how: failureText(error), exitCode: isCccError(error) ? error.exitCode : ExitCode.error, level: 'error' };
      throw error;
    }
  });
}

/**
 * Reads the kanban file and the current task's header, so that a bad file is an error before
 * claude is even looked for, and warns about a kanban file its task files contradict. False when
 * there is nothing to do.
 */
async function preflight(kanban: FileRef, cwd: string, warn: (warning: string) => void): Promise<boolean> {
  const doc = await readKanbanFile(kanban);
  if (doc.kanban.phase === 'complete' || doc.kanban.current === null) return false;
  if (doc.kanban.done_task !== doc.kanban.current) await readTaskHeader(taskRef(kanban, doc.kanban.current, cwd), `current in ${kanban.display}`);
  for (const warning of await boardWarnings(kanban, doc.kanban, cwd)) warn(warning);
  return true;
}

/** `--supervise`: the same checker pipeline and checks as `ccc --supervisor`. */
async function supervisorSession(resolved: ResolvedConfig, io: KanbanIo, claudeArgs: string[]): Promise<SupervisorSession> {
  const { config } = resolved;
  requireReviewerPrompts(resolved, io.cwd, io.env.HOME);
  const pipeline = await buildPipeline({ config, sources: resolved.sources, cwd: io.cwd, checkersFrom: describeOrigin('supervisor.checkers', resolved) });
  const session = new SupervisorSession({ resolved, pipeline, cwd: io.cwd, env: io.env, claudeArgs });
  await session.start();
  return session;
}
