/**
 * What the forked reviewer may do (design section 6): read files and run the project's
 * verification commands, never change the project. The policy is data (built by ccc, handed to
 * the reviewer's PreToolUse guard through its environment); `decideToolUse` judges one tool call.
 *
 * Allowed without any option: the read-only tools; the test command `ccc init` would detect,
 * exactly; the commands of the pipeline's `rule` checkers, exactly; read-only git (`status`,
 * `diff`, `log`, `show`); read-only shell commands (`ls`, `cat`, `grep`, …); output plumbing
 * (`2>&1`, `| tail -n 40`). `supervisor.reviewer.allow` widens it with Claude Code's rule syntax:
 * `Bash(make check)` exactly, `Bash(npm run lint:*)` with any arguments, `Bash` for any command,
 * or a tool name (`Edit`, `WebFetch`).
 */
import { parseAllowRule } from './allow-rule.js';
import { parseBashCommand, type Segment } from './bash-segments.js';

export interface ReviewerPolicy {
  /** Shell commands allowed exactly as written (word for word). */
  exact: string[];
  /** Commands allowed with any further arguments. */
  prefixes: string[];
  /** Tools allowed beyond the read-only ones; `Bash` here allows every command. */
  tools: string[];
}

export type ToolDecision = { allow: true; reason: string } | { allow: false; reason: string };

/** Tools that read or only talk to the reviewer itself. */
export const READ_ONLY_TOOLS: readonly string[] = ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'ToolSearch', 'TodoWrite', 'BashOutput'];

/** Commands that read and print, with no option that writes a file. */
const READ_ONLY_COMMANDS = new Set(['cat', 'head', 'tail', 'wc', 'grep', 'ls', 'pwd', 'cd', 'echo', 'diff', 'true']);
const READ_ONLY_GIT = new Set(['status', 'diff', 'log', 'show']);
/** Environment assignments a test run may need (`CI=true npm test`); others could change what runs. */
const HARMLESS_ASSIGNMENT = /^(CI|NO_COLOR|FORCE_COLOR|TERM)=/;

/** The same test, other spellings a reviewer reaches for. */
const TEST_COMMAND_ALIASES: Record<string, string[]> = {
  'npm test': ['npm run test', 'npm t'],
  'python3 -m pytest': ['python -m pytest', 'pytest'],
};

export interface PolicyInputs {
  /** The project's test command, as `ccc init` detects it. */
  testCommand?: string;
  /** Commands of the `rule` checkers in the pipeline. */
  ruleCommands: readonly string[];
  /** `supervisor.reviewer.allow`. */
  allow: readonly string[];
}

export function reviewerPolicy(inputs: PolicyInputs): ReviewerPolicy {
  const exact = [...inputs.ruleCommands];
  if (inputs.testCommand) exact.push(inputs.testCommand, ...(TEST_COMMAND_ALIASES[inputs.testCommand] ?? []));
  const prefixes: string[] = [];
  const tools: string[] = [];
  for (const rule of inputs.allow) {
    const parsed = parseAllowRule(rule);
    if (!parsed.ok) continue; // validated with the config; never widen on a rule we cannot read
    if (parsed.command === undefined) tools.push(parsed.tool);
    else (parsed.prefix ? prefixes : exact).push(parsed.command);
  }
  return { exact: unique(exact), prefixes: unique(prefixes), tools: unique(tools) };
}

export function decideToolUse(policy: ReviewerPolicy, tool: string, input: unknown): ToolDecision {
  if (READ_ONLY_TOOLS.includes(tool)) return { allow: true, reason: 'reading is allowed' };
  if (policy.tools.includes(tool)) return { allow: true, reason: `${tool} is allowed by supervisor.reviewer.allow` };
  if (tool !== 'Bash') return refuse(policy, `${tool} is not allowed: the reviewer may not change the project`);
  const command = (input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') return refuse(policy, 'a Bash call without a command');
  return decideCommand(policy, command);
}

function decideCommand(policy: ReviewerPolicy, command: string): ToolDecision {
  // A rule command is the user's own and runs in a shell anyway, whatever it contains.
  if (policy.exact.some((allowed) => squeeze(allowed) === squeeze(command))) return { allow: true, reason: 'a verification command' };
  const parsed = parseBashCommand(command);
  if (!parsed.ok) return refuse(policy, `\`${command}\` is not allowed: ${parsed.reason}`);
  if (policy.exact.some((allowed) => isExactWithPlumbing(parsed.segments, allowed))) return { allow: true, reason: 'a verification command' };
  for (const segment of parsed.segments) {
    if (!segmentAllowed(policy, segment)) return refuse(policy, `\`${segment.words.join(' ')}\` is not allowed: it is not a verification command`);
  }
  return { allow: true, reason: 'a verification command' };
}

function segmentAllowed(policy: ReviewerPolicy, segment: Segment): boolean {
  const words = withoutAssignments(segment.words);
  if (words.length === 0) return false;
  if (READ_ONLY_COMMANDS.has(words[0]!)) return true;
  if (segment.after === '|') return false;
  if (isReadOnlyGit(words)) return true;
  const single = (allowed: string) => {
    const parsed = parseBashCommand(allowed);
    return parsed.ok && parsed.segments.length === 1 ? parsed.segments[0]!.words : undefined;
  };
  if (policy.exact.some((allowed) => sameWords(words, single(allowed) ?? []))) return true;
  return policy.prefixes.some((allowed) => startsWithWords(words, single(allowed) ?? [allowed]));
}

/**
 * The allowed command word for word (a rule command may itself be `npm run build && npm test`),
 * optionally followed by filters of its output (`2>&1 | tail -n 40`).
 */
function isExactWithPlumbing(segments: Segment[], allowed: string): boolean {
  const expected = parseBashCommand(allowed);
  if (!expected.ok || expected.segments.length > segments.length) return false;
  const same = expected.segments.every((e, i) => e.after === segments[i]!.after && sameWords(withoutAssignments(segments[i]!.words), e.words));
  const rest = segments.slice(expected.segments.length);
  return same && rest.every((s) => s.after === '|' && READ_ONLY_COMMANDS.has(s.words[0] ?? ''));
}

function withoutAssignments(words: string[]): string[] {
  let i = 0;
  while (i < words.length && HARMLESS_ASSIGNMENT.test(words[i]!)) i++;
  return words.slice(i);
}

/** `git [--no-pager] status|diff|log|show …`, without `--output`, which writes a file. */
function isReadOnlyGit(words: string[]): boolean {
  if (words[0] !== 'git') return false;
  const rest = words[1] === '--no-pager' ? words.slice(2) : words.slice(1);
  return READ_ONLY_GIT.has(rest[0] ?? '') && !rest.some((w) => w.startsWith('--output') || w === '-o');
}

function sameWords(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

function startsWithWords(words: string[], prefix: string[]): boolean {
  return prefix.length <= words.length && prefix.every((w, i) => w === words[i]);
}

/** The reason the model reads as the tool's result: what was refused and what it may run instead. */
function refuse(policy: ReviewerPolicy, what: string): ToolDecision {
  if (policy.tools.includes('Bash')) return { allow: false, reason: what };
  const runnable = [...policy.exact, ...policy.prefixes.map((p) => `${p} …`), 'git status/diff/log/show', 'ls, cat, grep, head, tail, wc'];
  return { allow: false, reason: `${what}. As the reviewer you may read files and run: ${runnable.join('; ')}.` };
}

function squeeze(command: string): string {
  return command.trim().replace(/[ \t]+/g, ' ');
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
