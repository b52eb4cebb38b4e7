/**
 * What the forked reviewer may do (docs/design/reviewer.md, "The read-only policy"): read files and run the project's
 * verification commands, never change the project. The policy is data (built by ccc, handed to
 * the reviewer's PreToolUse guard through its environment); `decideToolUse` judges one tool call.
 *
 * Allowed without any option: the read-only tools; the test commands ccc detects, with the
 * arguments their runner's table allows (runner-args.ts: selecting tests, reporting on the
 * terminal, paths inside the project); the commands of the pipeline's `rule` checkers, exactly;
 * read-only exploration with its writing options refused (read-only-commands.ts); output plumbing
 * (`2>&1`, `| tail -n 40`). A verification command runs only inside the project (`cd /tmp && npm
 * test` is refused). `supervisor.reviewer.allow` widens it with Claude Code's rule syntax:
 * `Bash(make check)` exactly, `Bash(npm run lint:*)` with any arguments, `Bash` for any command,
 * or a tool name (`Edit`, `WebFetch`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DetectedTest } from '../../init/ecosystems.js';
import { parseAllowRule } from './allow-rule.js';
import { parseBashCommand, type Segment } from './bash-segments.js';
import { within } from '../../file-bounds.js';
import { readOnlyJudge } from './read-only-commands.js';
import { judgeRunnerArgs, type Family, type Judgement } from './runner-args.js';
import { runnerForms, type RunnerForm } from './runner-forms.js';
import { judgeWorkspaceCommand, WORKSPACE_USAGE, type WorkspaceTool } from './workspace-commands.js';

export interface ReviewerPolicy {
  /** The project directory (its real path): verification commands run inside it and get paths inside it. */
  root: string;
  /** Shell commands allowed exactly as written (word for word). */
  exact: string[];
  /** Commands allowed with any further arguments. */
  prefixes: string[];
  /** Tools allowed beyond the read-only ones; `Bash` here allows every command. */
  tools: string[];
  /** Test commands that take the arguments their runner's table allows. */
  runners: RunnerForm[];
  /** The monorepo tools whose workspace forms may run the packages' test scripts (workspace-commands.ts). */
  workspaces?: WorkspaceTool[];
}

export type ToolDecision = { allow: true; reason: string; verifies: boolean } | { allow: false; reason: string };

/** Tools that read or only talk to the reviewer itself. */
export const READ_ONLY_TOOLS: readonly string[] = ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'ToolSearch', 'TodoWrite', 'BashOutput'];

/** Environment assignments a test run may need (`CI=true npm test`); others could change what runs. */
const HARMLESS_ASSIGNMENT = /^(CI|NO_COLOR|FORCE_COLOR|TERM|PYTHONDONTWRITEBYTECODE)=/;

export interface PolicyInputs {
  /** The project directory. */
  root: string;
  /** The project's test commands, as ccc detects them. */
  tests: readonly DetectedTest[];
  /** Commands of the `rule` checkers in the pipeline. */
  ruleCommands: readonly string[];
  /** `supervisor.reviewer.allow`. */
  allow: readonly string[];
}

export function reviewerPolicy(inputs: PolicyInputs): ReviewerPolicy {
  const exact = [...inputs.ruleCommands, ...inputs.tests.map((t) => t.command)];
  const prefixes: string[] = [];
  const tools: string[] = [];
  for (const rule of inputs.allow) {
    const parsed = parseAllowRule(rule);
    if (!parsed.ok) continue; // validated with the config; never widen on a rule we cannot read
    if (parsed.command === undefined) tools.push(parsed.tool);
    else (parsed.prefix ? prefixes : exact).push(parsed.command);
  }
  return {
    root: realPath(inputs.root),
    exact: unique(exact),
    prefixes: unique(prefixes),
    tools: unique(tools),
    runners: runnerForms(inputs.tests),
    workspaces: workspaceTools(inputs.tests),
  };
}

/** The package manager of a project that declares workspaces, and turbo and nx when their config is there. */
export function workspaceTools(tests: readonly DetectedTest[]): WorkspaceTool[] {
  const tools = tests.filter((t) => t.workspaces || t.ecosystem === 'turbo' || t.ecosystem === 'nx').map((t) => t.ecosystem as WorkspaceTool);
  return [...new Set(tools)];
}

/** One tool call, from the directory the reviewer's shell is in (`cwd` of the hook input; default the project). */
export function decideToolUse(policy: ReviewerPolicy, tool: string, input: unknown, cwd?: string): ToolDecision {
  if (READ_ONLY_TOOLS.includes(tool)) return { allow: true, reason: 'reading is allowed', verifies: false };
  if (policy.tools.includes(tool)) return { allow: true, reason: `${tool} is allowed by supervisor.reviewer.allow`, verifies: false };
  if (tool !== 'Bash') return refuse(policy, `${tool} is not allowed: the reviewer may not change the project`);
  const command = (input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') return refuse(policy, 'a Bash call without a command');
  return decideCommand(policy, command, realPath(typeof cwd === 'string' && cwd !== '' ? cwd : policy.root));
}

const VERIFIES = 'a verification command';

function decideCommand(policy: ReviewerPolicy, command: string, cwd: string): ToolDecision {
  // A rule command is the user's own and runs in a shell anyway, whatever it contains.
  const inProject = within(policy.root, cwd);
  if (inProject && policy.exact.some((allowed) => squeeze(allowed) === squeeze(command))) return { allow: true, reason: VERIFIES, verifies: true };
  const parsed = parseBashCommand(command);
  if (!parsed.ok) return refuse(policy, `\`${command}\` is not allowed: ${parsed.reason}`);
  if (inProject && policy.exact.some((allowed) => isExactWithPlumbing(parsed.segments, allowed))) return { allow: true, reason: VERIFIES, verifies: true };
  let bases = [cwd];
  let verifies = false;
  for (const segment of parsed.segments) {
    const words = withoutAssignments(segment.words);
    const shown = segment.words.join(' ');
    if (words[0] === 'cd') {
      bases = [...bases, ...bases.map((base) => changedDirectory(base, words.slice(1)))];
      continue;
    }
    const readOnly = readOnlyJudge(words[0]);
    if (readOnly) {
      const judged = readOnly(words.slice(1));
      if (!judged.ok) return refuse(policy, `\`${shown}\` is not allowed: ${judged.reason}`);
      continue;
    }
    if (segment.after === '|') return refuse(policy, `\`${shown}\` is not allowed: only read-only commands may read another command's output`);
    const judged = judgeVerification(policy, words, bases);
    if (judged === undefined) return refuse(policy, `\`${shown}\` is not allowed: it is not a verification command`);
    if (!judged.ok) return refuse(policy, `\`${shown}\` is not allowed: ${judged.reason}`);
    verifies = true;
  }
  return { allow: true, reason: verifies ? VERIFIES : 'a read-only command', verifies };
}

/**
 * A verification command in every directory the segment may run in: a rule or allowed command,
 * or a test runner with the arguments its table allows. Undefined when it is none of these.
 */
function judgeVerification(policy: ReviewerPolicy, words: string[], bases: string[]): Judgement | undefined {
  const workspace = judgeWorkspace(policy, words, bases);
  if (workspace) return workspace;
  const known =
    policy.exact.some((allowed) => sameWords(words, singleSegment(allowed) ?? [])) ||
    policy.prefixes.some((allowed) => startsWithWords(words, singleSegment(allowed) ?? [allowed]));
  const form = known ? undefined : longestForm(policy.runners, words);
  if (!known && !form) return undefined;
  const outside = bases.find((base) => !within(policy.root, base));
  if (outside !== undefined) return { ok: false, reason: `it would run outside the project (in ${outside})` };
  if (known || !form) return { ok: true };
  const args = argumentsOf(form, words);
  for (const base of bases) {
    const judged = judgeFormArgs(form, args, { root: policy.root, base });
    if (!judged.ok) return judged;
  }
  return { ok: true };
}

/** A workspace form of the project's package manager, turbo or nx, in every directory it may run in; undefined when it is none. */
function judgeWorkspace(policy: ReviewerPolicy, words: string[], bases: string[]): Judgement | undefined {
  const tools = policy.workspaces ?? [];
  if (tools.length === 0 || judgeWorkspaceCommand(tools, words, { root: policy.root, base: policy.root }) === undefined) return undefined;
  const outside = bases.find((base) => !within(policy.root, base));
  if (outside !== undefined) return { ok: false, reason: `it would run outside the project (in ${outside})` };
  for (const base of bases) {
    const judged = judgeWorkspaceCommand(tools, words, { root: policy.root, base })!;
    if (!judged.ok) return judged;
  }
  return { ok: true };
}

/** A package manager's script takes `--silent`, then the runner's arguments after `--`. */
function judgeFormArgs(form: RunnerForm, args: string[], where: { root: string; base: string }): Judgement {
  if (form.script === 'required') {
    const i = silentOptions(args);
    if (i < args.length && args[i] !== '--')
      return { ok: false, reason: `arguments for the test script go after \`--\` (\`${form.words.join(' ')} -- ${args.slice(i).join(' ')}\`)` };
  }
  return judgeRunnerArgs(form.family, runnerArgs(form, args), where);
}

/** The arguments that reach the runner: a script's after the manager's `--silent` and `--`. */
function runnerArgs(form: RunnerForm, args: string[]): string[] {
  if (!form.script) return args;
  const i = silentOptions(args);
  return args.slice(args[i] === '--' ? i + 1 : i);
}

function silentOptions(args: readonly string[]): number {
  let i = 0;
  while (args[i] === '--silent' || args[i] === '-s') i++;
  return i;
}

function longestForm(forms: readonly RunnerForm[], words: string[]): RunnerForm | undefined {
  let best: RunnerForm | undefined;
  for (const form of forms) if (invokes(form, words) && form.words.length > (best?.words.length ?? 0)) best = form;
  return best;
}

/** `make -k test` invokes `make test` (its target floats among the options); others are a prefix. */
function invokes(form: RunnerForm, words: string[]): boolean {
  if (!form.floating) return startsWithWords(words, form.words);
  const head = form.words.slice(0, -1);
  return startsWithWords(words, head) && words.slice(head.length).includes(form.words[form.words.length - 1]!);
}

function argumentsOf(form: RunnerForm, words: string[]): string[] {
  if (!form.floating) return words.slice(form.words.length);
  const rest = words.slice(form.words.length - 1);
  rest.splice(rest.indexOf(form.words[form.words.length - 1]!), 1);
  return rest;
}

/** Where `cd <args>` leads from `base`; somewhere unknown (`cd`, `cd -`, options) counts as outside. */
function changedDirectory(base: string, args: string[]): string {
  const target = args[0];
  if (args.length !== 1 || target === undefined || target === '-' || target.startsWith('~') || target.startsWith('-')) return path.parse(base).root;
  return realPath(path.resolve(base, target));
}

/** One test runner a verification command runs, with the arguments it gets (`opaque` when ccc does not know the runner). */
interface TestRun {
  family: Family;
  args: string[];
  /** The segment's words as written (without harmless assignments), for what it runs (command-runners.ts). */
  words?: string[];
  /** The folder of the project it runs in, after the command's own `cd`s (`.` the project). */
  dir?: string;
}

export interface Verification {
  verifies: boolean;
  /** Whether the command's exit code is the verification's (not masked by a pipe, `;` or `||` after it). */
  exitCodeCounts: boolean;
  /** The runners it runs, in order. */
  runs: TestRun[];
  /** The command is one allowed exactly (a detected test command, a rule command): the user's own, whose arguments select nothing. */
  exact?: boolean;
}

/**
 * Whether the command runs a verification command, and whether its exit code is that command's:
 * not when a pipe, `;` or `||` follows it (`npm test | tail` exits with tail's code). Evidence
 * counts only verification commands, and a masked exit code as none.
 */
export function verificationOf(policy: ReviewerPolicy, command: string): Verification {
  const parsed = parseBashCommand(command);
  const exactly = policy.exact.some((allowed) => squeeze(allowed) === squeeze(command));
  if (!parsed.ok) return exactly ? { verifies: true, exitCodeCounts: true, runs: [{ family: 'opaque', args: [] }], exact: true } : NOT_VERIFYING;
  const { segments } = parsed;
  const plumbed = policy.exact.find((allowed) => isExactWithPlumbing(segments, allowed));
  let dir = '.';
  const runs = segments.map((segment): TestRun | undefined => {
    const words = withoutAssignments(segment.words);
    if (words[0] === 'cd') dir = relativeDir(policy.root, dir, words[1]);
    const run = testRunOf(policy, words);
    return run && { ...run, words, dir };
  });
  const verifying = runs.filter((run): run is TestRun => run !== undefined);
  if (exactly) return { verifies: true, exitCodeCounts: true, runs: verifying.length ? verifying : [{ family: 'opaque', args: [] }], exact: true };
  if (plumbed !== undefined) {
    const expected = parseBashCommand(plumbed);
    return { verifies: true, exitCodeCounts: expected.ok && expected.segments.length === segments.length, runs: verifying, exact: true };
  }
  const last = runs.map((run) => run !== undefined).lastIndexOf(true);
  if (last === -1) return NOT_VERIFYING;
  return { verifies: true, exitCodeCounts: segments.slice(last + 1).every((s) => s.after === '&&'), runs: verifying };
}

const NOT_VERIFYING: Verification = { verifies: false, exitCodeCounts: false, runs: [] };

/** The project folder a `cd` leads to, relative to the project (`.`); the project itself when it leads outside. */
function relativeDir(root: string, dir: string, to: string | undefined): string {
  if (to === undefined || path.isAbsolute(to) || to.startsWith('~') || to.startsWith('-')) return '.';
  const relative = path.posix.normalize(path.posix.join(dir, to));
  return relative === '..' || relative.startsWith('../') || !within(root, path.join(root, relative)) ? '.' : relative;
}

/** The runner one segment runs, or undefined when it is not a verification command. */
function testRunOf(policy: ReviewerPolicy, words: string[]): TestRun | undefined {
  // The packages' scripts run runners ccc does not know from here: read like a make target's output.
  if (policy.workspaces?.length && judgeWorkspaceCommand(policy.workspaces, words, { root: policy.root, base: policy.root }) !== undefined)
    return { family: 'opaque', args: [] };
  const form = longestForm(policy.runners, words);
  if (form) return { family: form.family, args: runnerArgs(form, argumentsOf(form, words)) };
  const known =
    policy.exact.some((allowed) => sameWords(words, singleSegment(allowed) ?? [])) ||
    policy.prefixes.some((allowed) => startsWithWords(words, singleSegment(allowed) ?? [allowed]));
  return known ? { family: 'opaque', args: [] } : undefined;
}

function singleSegment(command: string): string[] | undefined {
  const parsed = parseBashCommand(command);
  return parsed.ok && parsed.segments.length === 1 ? parsed.segments[0]!.words : undefined;
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
  return same && rest.every((s) => s.after === '|' && readOnlyJudge(s.words[0])?.(s.words.slice(1)).ok === true);
}

function withoutAssignments(words: string[]): string[] {
  let i = 0;
  while (i < words.length && HARMLESS_ASSIGNMENT.test(words[i]!)) i++;
  return words.slice(i);
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
  return { allow: false, reason: `${what}. ${runnableText(policy)}` };
}

export const READ_ONLY_SUMMARY =
  'read-only git (`git status`, `diff`, `log`, `show`, `ls-files`, `grep`, `blame`, `rev-parse`, `describe`, `cat-file`, `ls-tree`, listing branches and tags) and `ls`, `cat`, `head`, `tail`, `wc`, `grep`, `find`, `sed -n`, `rg`, `tree`, `file`, `stat`, `sort`, `uniq`, `cut`, `jq`, `diff` without their writing options';

/** What the reviewer may run, in one paragraph: the review message and every refusal say it. */
export function runnableText(policy: ReviewerPolicy): string {
  const { commands, runners } = runnableSummary(policy);
  const quoted = (items: string[]) => items.map((c) => `\`${c}\``).join(', ');
  return [
    `As the reviewer you may read files and run ${commands.length ? quoted(commands) : 'no test command (none was detected)'}`,
    runners.length
      ? `; with arguments that select tests or report on the terminal (test names, filters, verbosity, paths inside the project; nothing that writes, no redirect): ${quoted(runners)}`
      : '',
    `; ${READ_ONLY_SUMMARY}.`,
  ].join('');
}

/** The commands as they are allowed: exactly, with any arguments (`…`), and the runners that take arguments. */
function runnableSummary(policy: ReviewerPolicy): { commands: string[]; runners: string[] } {
  const runners = policy.runners.filter((f) => f.family !== 'opaque' && f.shown).map((f) => `${f.words.join(' ')}${f.script === 'required' ? ' --' : ''} …`);
  const workspaces = (policy.workspaces ?? []).flatMap((tool) => WORKSPACE_USAGE[tool]);
  return { commands: [...policy.exact, ...policy.prefixes.map((p) => `${p} …`)], runners: [...runners, ...workspaces] };
}

function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function squeeze(command: string): string {
  return command.trim().replace(/[ \t]+/g, ' ');
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
