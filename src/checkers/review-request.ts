/**
 * The message the forked reviewer receives. The supervisor prompt goes in the user message
 * itself: on `--resume` a system prompt may not replace the recorded one (design section 11).
 */
import type { CheckContext } from './types.js';

export const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    completed: { type: 'boolean', description: 'true only when the work the user asked for is verifiably done' },
    feedback: { type: 'string', description: 'what is missing or wrong and how to verify it; empty or a short confirmation when completed' },
  },
  required: ['completed', 'feedback'],
  additionalProperties: false,
} as const;

export function buildReviewMessage(supervisorPrompt: string, ctx: CheckContext): string {
  const prompts = ctx.userPrompts.length
    ? ctx.userPrompts.map((p, i) => `${i + 1}. ${p}`).join('\n')
    : '(no user prompt was recorded)';
  return [
    supervisorPrompt.trim(),
    '',
    '---',
    `You are reviewing the work above (review ${ctx.iteration} of at most ${ctx.maxIterations}). You are a reviewer, not the agent: do not continue the work yourself.`,
    '',
    '## What the user asked in this session',
    prompts,
    '',
    "## The agent's last message",
    ctx.lastAssistantMessage.trim() || '(empty)',
    '',
    '## Your answer',
    'Verify with tools (read files, run the tests) rather than trusting claims. Then answer with the StructuredOutput tool:',
    '`{"completed": true|false, "feedback": "..."}`. When the work is not complete, the feedback is given to the agent as its next',
    `message: make it concrete and say how to verify the fix. If you cannot call the tool, end your answer with that JSON object, or with ${ctx.completionMarker} on its own line when the work is complete.`,
  ].join('\n');
}

/**
 * The user's claude options that also apply to the forked reviewer: permissions (so it may run
 * the tests), model, settings and MCP. An allowlist, because anything else (a positional prompt,
 * `-p`, `--resume`) would change what the reviewer is.
 */
const REVIEWER_OPTIONS_WITH_VALUE = new Set([
  '--allowedTools', '--allowed-tools', '--disallowedTools', '--disallowed-tools', '--permission-mode', '--model',
  '--fallback-model', '--settings', '--setting-sources', '--add-dir', '--mcp-config', '--plugin-dir', '--agents',
]);
const REVIEWER_FLAGS = new Set(['--dangerously-skip-permissions', '--strict-mcp-config', '--allow-dangerously-skip-permissions']);

export function reviewerArgs(claudeArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < claudeArgs.length; i++) {
    const arg = claudeArgs[i]!;
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (REVIEWER_FLAGS.has(arg)) out.push(arg);
    else if (REVIEWER_OPTIONS_WITH_VALUE.has(name)) {
      if (eq !== -1) out.push(arg);
      else if (i + 1 < claudeArgs.length) out.push(arg, claudeArgs[++i]!);
    }
  }
  return out;
}
