/**
 * One agent call under the retry rule (docs/design/kanban.md, "The retry rule"): an answer that is not in the
 * required format is logged as a Retry Event and the SAME invocation (the very same argument
 * array and message) runs again, up to `maxRetries` times; after that the call fails. A claude
 * that exits without an answer counts as an answer in the wrong format. Interruption (Ctrl-C)
 * and a claude that cannot be started at all are not retried.
 */
import { claudeNotFoundError } from '../claude/claude-print.js';
import type { CheckerLogger } from '../checkers/types.js';
import { OUTPUT_SCHEMAS, parseAgentOutput, type AgentOutput, type CheckedOutput } from './agent-output.js';
import type { AgentRequest } from './agent-request.js';
import type { AgentRun, AgentRunner } from './agent-runner.js';
import { firstLine, type Progress } from './progress.js';
import { formatFailureEvent, formatRetryEvent, type EventLog } from './event-log.js';
import { childEndText } from '../process/child-end.js';

export interface AgentCallDeps {
  runner: AgentRunner;
  maxRetries: number;
  log: EventLog;
  progress: Progress;
  logger: CheckerLogger;
  /** For the error when claude cannot be started. */
  claudeCommand: string;
  signal?: AbortSignal;
  now?: () => Date;
}

export type AgentCallResult = { kind: 'answered'; output: AgentOutput; run: AgentRun } | { kind: 'failed'; message: string } | { kind: 'interrupted' };

/** A format rule that needs more than the answer itself (the Manager's next_task must exist). */
export type ExtraCheck = (output: AgentOutput) => Promise<string | undefined>;

export async function callAgent(request: AgentRequest, deps: AgentCallDeps, extraCheck?: ExtraCheck): Promise<AgentCallResult> {
  const now = deps.now ?? (() => new Date());
  for (let retry = 0; ; retry++) {
    const agent = { label: request.label, role: request.role, retry, maxRetries: deps.maxRetries };
    const started = now().getTime();
    const ticker = deps.progress.started(agent);
    let run: AgentRun;
    try {
      run = await deps.runner.run(request, deps.signal);
    } finally {
      ticker.stop();
    }
    if (run.spawnError) throw claudeNotFoundError(deps.claudeCommand, run.spawnError);
    if (run.aborted || deps.signal?.aborted) return { kind: 'interrupted' };
    const elapsed = now().getTime() - started;
    const checked = await check(run, request, extraCheck);
    deps.logger.info('agent answered', {
      task: request.label,
      role: request.role,
      ...(retry > 0 ? { retry: `${retry}/${deps.maxRetries}` } : {}),
      exit_code: run.exitCode,
      session_id: run.sessionId ?? null,
      valid: checked.ok,
      duration: `${elapsed}ms`,
      ...(checked.ok ? { status: checked.output.status } : { issue: checked.issue, stderr: run.stderrTail }),
    });
    if (checked.ok) {
      deps.progress.finished(agent, elapsed, `${checked.output.status}: ${firstLine(checked.output.message)}`);
      return { kind: 'answered', output: checked.output, run };
    }
    const record = {
      at: now(),
      agent: request.role,
      task: request.label,
      issue: checked.issue,
      expected: OUTPUT_SCHEMAS[request.contract],
      received: receivedText(run),
    };
    if (retry < deps.maxRetries) {
      const next = retry + 1;
      await deps.log.append((log) => formatRetryEvent({ ...record, retry: next, maxRetries: deps.maxRetries }, log));
      deps.progress.finished(agent, elapsed, `${checked.issue}; retry ${next}/${deps.maxRetries} with the same input (${deps.log.file.display})`);
      continue;
    }
    await deps.log.append((log) => formatFailureEvent({ ...record, attempts: retry + 1, maxRetries: deps.maxRetries }, log));
    deps.progress.finished(agent, elapsed, checked.issue);
    return {
      kind: 'failed',
      message: `The ${request.role} agent (${request.label}) did not answer in the required format after ${deps.maxRetries} ${deps.maxRetries === 1 ? 'retry' : 'retries'}: ${checked.issue}. Every attempt is in ${deps.log.file.display}.`,
    };
  }
}

async function check(run: AgentRun, request: AgentRequest, extraCheck?: ExtraCheck): Promise<CheckedOutput> {
  const parsed = parseAgentOutput({ structuredOutput: run.structuredOutput, resultText: run.resultText }, request.contract);
  if (!parsed.ok) {
    if (run.exitCode !== 0) {
      const detail = firstLine(lastLine(run.stderrTail) || run.resultText || '', 300);
      return { ok: false, issue: `No valid output: claude ${childEndText(run)}${detail ? ` (${detail})` : ''}` };
    }
    return { ok: false, issue: `Invalid output format: ${parsed.issue}` };
  }
  const extra = extraCheck ? await extraCheck(parsed.output) : undefined;
  return extra === undefined ? parsed : { ok: false, issue: `Invalid output format: ${extra}` };
}

/** What the retry log shows as received: the structured output, else the text, else stderr. */
function receivedText(run: AgentRun): string {
  if (run.structuredOutput !== undefined) return JSON.stringify(run.structuredOutput);
  if (run.resultText !== undefined && run.resultText !== '') return run.resultText;
  return run.stderrTail;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim() ?? '';
}
