/**
 * What one agent run is given: the claude arguments and the message on stdin. Built once per
 * agent call and reused as is for every retry, because the retry rule demands the exact same
 * inputs (docs/design/kanban.md, "The retry rule"): nothing here may depend on time, attempt or randomness.
 */
import { OUTPUT_SCHEMAS, type OutputContract } from './agent-output.js';
import type { RolePrompt } from './role-prompts.js';
import type { Role } from './role.js';

export interface AgentRequest {
  role: Role;
  contract: OutputContract;
  /** How progress lines and the retry log name the work (a task file, or the reconciliation). */
  label: string;
  /** The full claude argument list. */
  args: readonly string[];
  /** The message, written to stdin (a positional prompt could be swallowed by a claude option). */
  stdin: string;
}

/** 004's inputs: a task for Architect/Implementor/planning, the task list for reconciliation. */
export type AgentInputs = { task_file: string; kanban_file: string } | { kanban_file: string; done_task: string; tasks: readonly string[] };

export interface BuildAgentRequestOptions {
  role: Role;
  prompt: RolePrompt;
  inputs: AgentInputs;
  /** `claude.args` and the args after `--`: they apply to every agent. */
  claudeArgs: readonly string[];
  label: string;
}

export function buildAgentRequest(options: BuildAgentRequestOptions): AgentRequest {
  const contract: OutputContract = 'done_task' in options.inputs ? 'reconcile' : 'task';
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--json-schema', JSON.stringify(OUTPUT_SCHEMAS[contract]), ...options.claudeArgs];
  return { role: options.role, contract, label: options.label, args, stdin: agentMessage(options.prompt.text, options.inputs, contract) };
}

function agentMessage(rolePrompt: string, inputs: AgentInputs, contract: OutputContract): string {
  const paths =
    contract === 'task'
      ? '`task_file` and `kanban_file` are relative to your working directory.'
      : "`kanban_file` is relative to your working directory. `done_task`, `tasks` and the `next_task` you answer are task paths as the kanban file writes them (relative to the kanban file's directory).";
  const shape =
    contract === 'task'
      ? '{"status": "ok" | "blocked" | "error" | "escalate", "message": "<short summary>"}'
      : '{"status": "ok" | "blocked" | "error" | "escalate", "message": "<short summary>", "tasks": ["<task path>", …], "next_task": "<task path>" | null}';
  return [
    rolePrompt.trim(),
    '',
    '---',
    '',
    '## Your inputs',
    '',
    '```json',
    JSON.stringify(inputs, null, 2),
    '```',
    '',
    paths,
    '',
    '## Your answer',
    '',
    'When you are done, answer with the StructuredOutput tool, in exactly this shape:',
    '',
    shape,
    '',
    'If you cannot call that tool, end your answer with that JSON object alone in a ```json block.',
    '',
  ].join('\n');
}
