/**
 * The message the forked reviewer receives. The supervisor prompt goes in the user message
 * itself: on `--resume` a system prompt may not replace the recorded one (docs/design/reviewer.md). It is
 * the only new text of the review request (everything before it is the agent's own conversation,
 * read from the cache), so it stays short. The verdict comes back as a JSON object at the end of
 * the answer: no `--json-schema`, whose extra tool would break the cache.
 */
import { runnableText, type ReviewerPolicy } from './reviewer/reviewer-policy.js';
import type { CheckContext } from './types.js';

const VERDICT_SHAPE = '{"completed": true|false, "feedback": "..."}';

/** What ccc requires of a `complete` beyond the reviewer's word, said to the reviewer so that it does not answer one that ccc refuses. */
export interface ReviewRules {
  /** `supervisor.reviewer.require_evidence: 'whole-suite'`, and the project's test commands that run it. */
  wholeSuite?: { commands: readonly string[] };
}

export function buildReviewMessage(supervisorPrompt: string, ctx: CheckContext, policy: ReviewerPolicy, rules: ReviewRules = {}): string {
  return [
    supervisorPrompt.trim(),
    '',
    '---',
    `You are reviewing the work above (review ${ctx.iteration} of at most ${ctx.maxIterations}). You are the reviewer, not the agent: do not continue the work and do not change any file.`,
    '',
    ...taskSections(ctx),
    ...answerSections(ctx, policy, rules),
  ].join('\n');
}

/**
 * The message of a fresh reviewer, one that does not fork the session because the forked review
 * did not fit the model's window even after claude compacted it: the task, the agent's last message
 * and `change` (what the agent changed, reviewer/project-change.ts) stand in for the conversation.
 * A new session reads nothing from the agent's cache, so this message may be long; `change` is
 * bounded by its maker.
 */
export function buildFreshReviewMessage(supervisorPrompt: string, ctx: CheckContext, policy: ReviewerPolicy, change: string, rules: ReviewRules = {}): string {
  return [
    ...changeUnderReview(
      supervisorPrompt,
      ctx,
      change,
      "Its conversation no longer fits the model's window, so you see the task, its last message and its change instead;",
    ),
    ...answerSections(ctx, policy, rules),
  ].join('\n');
}

/**
 * The message of a reviewer from another vendor (the codex checker): a new session, like a fresh
 * review's, given the task, the agent's last message and its change; `where` says what its
 * sandbox lets it do. Its verdict comes through the output schema it is run with, so the message
 * asks for no JSON of its own.
 */
export function buildIndependentReviewMessage(supervisorPrompt: string, ctx: CheckContext, change: string, where: string, rules: ReviewRules = {}): string {
  return [
    ...changeUnderReview(supervisorPrompt, ctx, change, 'You see the task, its last message and its change;'),
    ...changedTestsSection(ctx),
    '## How to review',
    `Verify with commands rather than trusting claims: read the files and run the project's tests and checks. ${where} ${EVIDENCE_RULE} ${NO_CONTRADICTION_RULE}${wholeSuiteRule(rules)}`,
    '',
    '## Your answer',
    'Your final answer is the verdict object your output schema describes: `completed` is true only when the task is done and you verified it. When it is not, `feedback` is given to the agent as its next message: make it concrete, quote what failed, and say how to verify the fix.',
  ].join('\n');
}

/** A new session's view of the work: the rules, the task, the change, and who it is (`seen`: what it sees instead of the conversation). */
function changeUnderReview(supervisorPrompt: string, ctx: CheckContext, change: string, seen: string): string[] {
  return [
    supervisorPrompt.trim(),
    '',
    '---',
    ...taskSections(ctx),
    '## What the agent changed in the project',
    change.trim() || '(nothing found)',
    '',
    '---',
    `You are reviewing the work above (review ${ctx.iteration} of at most ${ctx.maxIterations}): an agent was given the task above and says it is done. ${seen} the project is in the current directory. You are the reviewer, not the agent: do not continue the work and do not change any file.`,
    '',
  ];
}

const EVIDENCE_RULE =
  "A test command's exit code and its summary of the tests it ran are the evidence your verdict rests on: do not pipe it into another command; listing or collecting the tests, building them without running, or a filter that selects none verifies nothing.";

const NO_CONTRADICTION_RULE = 'ccc does not accept "complete" over a failing test run that no later run passed.';

/** What `require_evidence: 'whole-suite'` adds to the rules a reviewer is told. */
function wholeSuiteRule(rules: ReviewRules): string {
  if (!rules.wholeSuite) return '';
  const commands = rules.wholeSuite.commands.map((c) => `\`${c}\``).join(', ');
  return ` ccc accepts "complete" only when you ran the project's whole test suite${commands ? ` (${commands})` : ''}, without a filter, and it passed.`;
}

function taskSections(ctx: CheckContext): string[] {
  const prompts = ctx.userPrompts.length ? ctx.userPrompts.map((p, i) => `${i + 1}. ${p}`).join('\n') : '(no user prompt was recorded)';
  return [
    '## What the user asked in this session',
    prompts,
    '',
    ...goalSection(ctx.goal),
    "## The agent's last message",
    ctx.lastAssistantMessage.trim() || '(empty)',
    '',
  ];
}

/** The weakened tests (reviewer/test-changes.ts), for the reviewer to judge, with their diff. */
function changedTestsSection(ctx: CheckContext): string[] {
  const changed = ctx.changedTests;
  if (!changed?.weakened.length) return [];
  return [
    '## Tests the agent changed since the task began',
    `ccc compared the project with ${changed.since} and found changes to the test suite that can make tests pass without the work being done:`,
    ...changed.weakened.map((w) => `- \`${w.file}\`: ${w.findings.join('; ')}`),
    'Judge each one: is it what the user asked for, or does it weaken the tests? Say which in your feedback; a change that weakens them means the work is not complete. Whatever you answer, a passing run that rests on these files is reported as "verified by tests the agent changed".',
    ...(changed.diff ? ['```diff', changed.diff.trimEnd(), '```'] : []),
    '',
  ];
}

function answerSections(ctx: CheckContext, policy: ReviewerPolicy, rules: ReviewRules): string[] {
  return [
    ...changedTestsSection(ctx),
    '## How to review',
    `Verify with tools rather than trusting claims: read the files and run the checks. ${runnable(policy)} Anything that changes the project is refused. ${EVIDENCE_RULE} ${NO_CONTRADICTION_RULE}${wholeSuiteRule(rules)}`,
    '',
    '## Your answer',
    `End your answer with this JSON object and nothing after it: ${VERDICT_SHAPE}`,
    'When the work is not complete, the feedback is given to the agent as its next message: make it concrete, quote what failed, and say how to verify the fix.',
    `(${ctx.completionMarker} alone on the last line also means complete.)`,
  ];
}

/** Sent to the reviewer's own fork when its answer had no verdict: a cached follow-up, not a new review. */
export const VERDICT_REMINDER = `Your answer did not end with the verdict. Reply with only the JSON object ${VERDICT_SHAPE}.`;

/** How much of a first answer without a verdict the retry quotes (its end holds the conclusion). */
const QUOTED_ANSWER_CHARS = 4000;

/** The retry's message: the same request (a cached read), what the reviewer answered, the reminder. */
export function retryMessage(request: string, answer: string): string {
  const quoted = answer.length > QUOTED_ANSWER_CHARS ? `…${answer.slice(-QUOTED_ANSWER_CHARS)}` : answer;
  return `${request}\n\nYou already reviewed this work and answered:\n<previous-answer>\n${quoted}\n</previous-answer>\n\n${VERDICT_REMINDER}`;
}

/** A `/goal` is part of the task: the reviewer checks it itself, as it checks the rest. */
function goalSection(goal: string | undefined): string[] {
  if (goal === undefined) return [];
  return [
    '## The session goal (set with /goal)',
    goal,
    'The work is complete only when this condition holds, as you verified it yourself: a claim in the conversation, or Claude Code having marked the goal met, is not evidence.',
    '',
  ];
}

function runnable(policy: ReviewerPolicy): string {
  if (policy.tools.includes('Bash')) return 'You may run any shell command that does not change the project.';
  return runnableText(policy);
}
