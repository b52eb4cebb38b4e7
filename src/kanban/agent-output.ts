/**
 * The one thing ccc checks about an agent's work: the shape of its answer, never its content
 * (docs/design/kanban.md, "The answer"). `{status, message}` for every agent; the Manager's
 * reconciliation also returns `tasks` and `next_task`. The structured output of `--json-schema`
 * is the normal path; the result text is searched as a fallback (docs/design/claude-facts.md).
 */
import { isJsonObject, lastJsonObject } from '../claude/json-in-text.js';

export const AGENT_STATUSES = ['ok', 'blocked', 'error', 'escalate'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export interface AgentOutput {
  status: AgentStatus;
  /** Human-readable summary. */
  message: string;
  /** Manager only: the task to work on next, or null when the workflow is finished. */
  next_task?: string | null;
  /** Manager only: the complete task list. */
  tasks?: string[];
}

/** Which contract an answer is held to. */
export type OutputContract = 'task' | 'reconcile';

const STATUS = {
  type: 'string',
  enum: [...AGENT_STATUSES],
  description: 'ok: done, work log written; blocked / escalate: a human must look (say why); error: you failed',
};
const MESSAGE = { type: 'string', description: 'a short human-readable summary of what you did or why you stopped' };
const NEXT_TASK = { type: ['string', 'null'], description: 'Manager only: the task file to work on next, or null when the whole workflow is finished' };
const TASKS = { type: 'array', items: { type: 'string' }, description: 'Manager only: the complete task list, as paths in the kanban file' };

/** The `--json-schema` of each contract. A Manager must always return the list, even when blocked. */
export const OUTPUT_SCHEMAS: Readonly<Record<OutputContract, object>> = {
  task: { type: 'object', properties: { status: STATUS, message: MESSAGE, next_task: NEXT_TASK, tasks: TASKS }, required: ['status', 'message'] },
  reconcile: {
    type: 'object',
    properties: { status: STATUS, message: MESSAGE, next_task: NEXT_TASK, tasks: TASKS },
    required: ['status', 'message', 'tasks', 'next_task'],
  },
};

export type CheckedOutput = { ok: true; output: AgentOutput } | { ok: false; issue: string };

/**
 * The shape rules, by hand so that the issue says exactly what is wrong. Extra keys are allowed.
 * A reconciliation that is not `ok` need not carry `tasks`/`next_task`: the run stops anyway.
 */
export function checkAgentOutput(value: unknown, contract: OutputContract): CheckedOutput {
  if (!isJsonObject(value)) return { ok: false, issue: `the answer is ${Array.isArray(value) ? 'a list' : typeof value}, not an object` };
  if (!AGENT_STATUSES.includes(value.status as AgentStatus)) {
    return {
      ok: false,
      issue: `"status" is ${value.status === undefined ? 'missing' : JSON.stringify(value.status)}; it must be one of ${AGENT_STATUSES.join(', ')}`,
    };
  }
  if (typeof value.message !== 'string') return { ok: false, issue: `"message" is ${value.message === undefined ? 'missing' : 'not a string'}` };
  const output: AgentOutput = { status: value.status as AgentStatus, message: value.message };
  const hasTasks = value.tasks !== undefined && value.tasks !== null;
  if (hasTasks && !(Array.isArray(value.tasks) && value.tasks.every((t) => typeof t === 'string' && t.trim() !== ''))) {
    return { ok: false, issue: '"tasks" must be a list of task file paths' };
  }
  if (hasTasks) output.tasks = [...(value.tasks as string[])];
  const next = value.next_task;
  if (next !== undefined && next !== null && (typeof next !== 'string' || next.trim() === ''))
    return { ok: false, issue: '"next_task" must be a task file path or null' };
  if (next !== undefined) output.next_task = next;
  if (contract === 'reconcile' && output.status === 'ok') {
    if (!hasTasks) return { ok: false, issue: '"tasks" is missing (the Manager returns the complete task list)' };
    if (next === undefined) return { ok: false, issue: '"next_task" is missing (a task file path, or null when the workflow is finished)' };
  }
  return { ok: true, output };
}

export interface OutputSources {
  structuredOutput?: unknown;
  resultText?: string;
}

/**
 * Finds a valid answer: the structured output, else the last valid object in the result text.
 * When there is none, the issue comes from the best candidate, so the retry log says why.
 */
export function parseAgentOutput(sources: OutputSources, contract: OutputContract): CheckedOutput {
  const hasStructured = sources.structuredOutput !== undefined && sources.structuredOutput !== null;
  const structured = hasStructured ? checkAgentOutput(sources.structuredOutput, contract) : undefined;
  if (structured?.ok) return structured;
  const text = sources.resultText ?? '';
  const found = lastJsonObject(text, (value) => {
    const checked = checkAgentOutput(value, contract);
    return checked.ok ? checked : undefined;
  });
  if (found) return found;
  if (structured) return structured;
  const candidate = lastJsonObject(text, (value) => (isJsonObject(value) ? value : undefined));
  if (candidate) return checkAgentOutput(candidate, contract);
  return { ok: false, issue: text.trim() === '' ? 'the answer is empty' : 'the answer holds no JSON object' };
}
