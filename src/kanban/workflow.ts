/**
 * The loop of `ccc kanban` (docs/design/kanban.md, "The loop"). The kanban file is read afresh at every step and is the only state:
 * read it; stop when `current` is null or the phase is complete; run the role the table picks for
 * `current`; then the Manager reconciles (`{kanban_file, done_task, tasks}`) and ccc writes the
 * Manager's `tasks` and `next_task` (as `current`) into the kanban file. ccc interprets nothing
 * but the output format.
 *
 * Crash safety: between a task's success and the end of its reconciliation the kanban file
 * carries `done_task: <current>`, so a rerun after a crash goes straight to the Manager instead
 * of doing the task again; every write is atomic.
 */
import fs from 'node:fs/promises';
import type { CheckerLogger } from '../checkers/types.js';
import { ExitCode, isCccError } from '../errors.js';
import { callAgent, type AgentCallDeps, type AgentCallResult } from './agent-call.js';
import type { AgentOutput } from './agent-output.js';
import { buildAgentRequest, type AgentRequest } from './agent-request.js';
import type { AgentRun } from './agent-runner.js';
import { readKanbanFile, taskRef, writeKanbanChanges, type FileRef, type KanbanDocument } from './kanban-file.js';
import type { Progress } from './progress.js';
import type { RolePrompts } from './role-prompts.js';
import { routeRole } from './role.js';
import { readTaskHeader } from './task-file.js';

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT): the kanban file is left as it was. */
export const EXIT_INTERRUPTED = 130;

/**
 * `--supervise`: reviews an Implementor answer of status ok before the Manager sees it, and may
 * resume the Implementor with feedback; returns the answer to go on with, or why to stop.
 */
export type ImplementorReview = (
  request: AgentRequest,
  answer: { output: AgentOutput; run: AgentRun },
) => Promise<AgentCallResult | { kind: 'stopped'; exitCode: number; message: string }>;

export interface WorkflowOptions {
  kanban: FileRef;
  cwd: string;
  prompts: RolePrompts;
  claudeArgs: readonly string[];
  call: AgentCallDeps;
  progress: Progress;
  logger: CheckerLogger;
  review?: ImplementorReview;
}

export interface WorkflowOutcome {
  exitCode: number;
  message: string;
}

type Step = { kind: 'next'; doc: KanbanDocument } | { kind: 'stop'; outcome: WorkflowOutcome };

export async function runWorkflow(options: WorkflowOptions): Promise<WorkflowOutcome> {
  let tasksDone = 0;
  for (;;) {
    const doc = await readKanbanFile(options.kanban);
    const { kanban } = doc;
    if (kanban.phase === 'complete' || kanban.current === null) {
      const why = kanban.phase === 'complete' ? 'the workflow is complete' : 'current is null: there is no task to work on';
      return {
        exitCode: ExitCode.completed,
        message: `${options.kanban.display}: ${why} (${tasksDone} ${tasksDone === 1 ? 'task' : 'tasks'} done in this run).`,
      };
    }
    let base = doc;
    if (kanban.done_task === kanban.current) {
      options.progress.note(`${kanban.current} was done in an earlier run; the Manager reconciles it now`);
    } else {
      const step = await runTask(doc, kanban.current, options);
      if (step.kind === 'stop') return step.outcome;
      base = step.doc;
      tasksDone += 1;
    }
    const step = await reconcile(base, kanban.current, options);
    if (step.kind === 'stop') return step.outcome;
  }
}

async function runTask(doc: KanbanDocument, current: string, options: WorkflowOptions): Promise<Step> {
  const task = taskRef(options.kanban, current, options.cwd);
  const header = await readTaskHeader(task, `current in ${options.kanban.display}`);
  const role = routeRole(doc.kanban, header.role);
  const request = buildAgentRequest({
    role,
    prompt: options.prompts[role],
    inputs: { task_file: task.display, kanban_file: options.kanban.display },
    claudeArgs: options.claudeArgs,
    label: task.display,
  });
  let result = await callAgent(request, options.call);
  if (result.kind === 'answered' && result.output.status === 'ok' && role === 'Implementor' && options.review) {
    const reviewed = await options.review(request, result);
    if (reviewed.kind === 'stopped') return { kind: 'stop', outcome: { exitCode: reviewed.exitCode, message: reviewed.message } };
    result = reviewed;
  }
  const stop = stopFor(result, request);
  if (stop) return stop;
  const fresh = await reread(doc, options);
  return { kind: 'next', doc: await writeKanbanChanges(fresh, { done_task: current }) };
}

async function reconcile(doc: KanbanDocument, done: string, options: WorkflowOptions): Promise<Step> {
  const request = buildAgentRequest({
    role: 'Manager',
    prompt: options.prompts.Manager,
    inputs: { kanban_file: options.kanban.display, done_task: done, tasks: doc.kanban.tasks },
    claudeArgs: options.claudeArgs,
    label: `${options.kanban.display} (done_task: ${done})`,
  });
  const result = await callAgent(request, options.call, async (output) => {
    if (output.status !== 'ok' || typeof output.next_task !== 'string') return undefined;
    const next = taskRef(options.kanban, output.next_task, options.cwd);
    return (await isFile(next.path))
      ? undefined
      : `"next_task" names ${JSON.stringify(output.next_task)}, which is not a file (${next.display}); task paths are relative to the kanban file's directory`;
  });
  const stop = stopFor(result, request);
  if (stop || result.kind !== 'answered') return stop ?? { kind: 'stop', outcome: interrupted() };
  const next = result.output.next_task ?? null;
  const fresh = await reread(doc, options);
  const written = await writeKanbanChanges(fresh, {
    tasks: result.output.tasks ?? fresh.kanban.tasks,
    current: next,
    done_task: null,
    ...(next === null ? { phase: 'complete' as const } : {}),
  });
  options.progress.note(next === null ? `the Manager finished the workflow; ${written.ref.display} is complete` : `next task: ${next}`);
  return { kind: 'next', doc: written };
}

/** The outcome that ends the run for anything but an `ok` answer. */
function stopFor(result: AgentCallResult, request: AgentRequest): Extract<Step, { kind: 'stop' }> | undefined {
  if (result.kind === 'failed') return { kind: 'stop', outcome: { exitCode: ExitCode.checkerFailed, message: result.message } };
  if (result.kind === 'interrupted') return { kind: 'stop', outcome: interrupted() };
  if (result.output.status === 'ok') return undefined;
  return {
    kind: 'stop',
    outcome: {
      exitCode: ExitCode.kanbanStopped,
      message: `The ${request.role} agent stopped the workflow at ${request.label} with status ${result.output.status}: ${result.output.message}`,
    },
  };
}

function interrupted(): WorkflowOutcome {
  return { exitCode: EXIT_INTERRUPTED, message: 'Interrupted. The kanban file holds the state before the running agent; run ccc kanban again to continue.' };
}

/**
 * The kanban file as an agent left it (the Manager may edit it; the others should not). When an
 * agent broke it, the last good version is the base of ccc's write, with a warning.
 */
async function reread(previous: KanbanDocument, options: WorkflowOptions): Promise<KanbanDocument> {
  try {
    return await readKanbanFile(previous.ref);
  } catch (error) {
    if (!isCccError(error)) throw error;
    options.logger.warn('an agent left the kanban file invalid; writing over the last valid version', { file: previous.ref.display, error: error.message });
    options.progress.note(`warning: ${error.message} ccc writes its update over the last valid version.`);
    return previous;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
