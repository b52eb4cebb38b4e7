/**
 * How the forked reviewer is started so that its first request is the agent's last request plus
 * the review message, read from the prompt cache (docs/design/reviewer.md, "Why it keeps the prompt cache"):
 * - the same tools: no `--json-schema` (it adds a tool); the agent's options that shape the tool
 *   list, the model and the settings are passed on unchanged;
 * - no write permission: the agent's `--allowedTools` write rules, `--permission-mode` and
 *   `--dangerously-skip-permissions` are not passed on; instead a PreToolUse hook (the guard)
 *   given through `--settings` allows reads and verification commands and denies the rest. A hook
 *   changes neither the tool list nor the system prompt (checked at the model server in the tests).
 */
import { fileURLToPath } from 'node:url';
import { shellQuote, withLaunchSettings } from '../../stop/launch-settings.js';
import { POLICY_ENV } from './guard-hook.js';
import { REVIEW_ENV, withoutCccMarkers } from '../../loop/supervised-env.js';
import { guardProbe, type GuardProbe } from './guard-probe.js';
import { READ_ONLY_TOOLS, type ReviewerPolicy } from './reviewer-policy.js';

export interface ReviewerLaunchOptions {
  /**
   * The agent's session to fork; absent for a fresh reviewer, a new session that is given the task
   * and the change in its message instead (claude-checker.ts, when the fork does not fit the window).
   */
  fork?: string;
  /** The user's claude arguments for the agent. */
  claudeArgs: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  policy: ReviewerPolicy;
  /** `supervisor.reviewer.model`: another model than the agent's (it cannot read the agent's cache). */
  model?: string;
  /**
   * The session has a `/goal`: the fork inherits it (Claude Code restores an active goal on
   * `--resume`), and its evaluator would send the reviewer back to work toward it. The reviewer's
   * own Stop hook then ends its turn at its first stop (`continue: false` wins over any block).
   */
  sessionHasGoal?: boolean;
}

export interface ReviewerLaunch {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The nonce the guard's SessionStart probe prints: seen in the stream, the guard is loaded. */
  guardNonce: string;
}

export const GUARD_SCRIPT = fileURLToPath(new URL('./guard-main.js', import.meta.url));

/**
 * The fork is never saved (`--no-session-persistence`): a saved fork would be the newest session of
 * the project, so the user's next `claude --continue` (or a supervised `--continue`) would continue
 * the reviewer's conversation instead of the agent's, and every review would add a session to the
 * user's `/resume` list. The flag changes neither the tools nor the system prompt of the request.
 */
export function reviewerLaunch(options: ReviewerLaunchOptions): ReviewerLaunch {
  const session = [...(options.fork === undefined ? [] : ['--fork-session', '--resume', options.fork]), '--no-session-persistence'];
  let inherited = inheritedArgs(options.claudeArgs);
  if (options.model) inherited = [...withoutOption(inherited, '--model'), '--model', options.model];
  const probe = guardProbe();
  // `--include-hook-events` puts the probe's answer in the stream; it changes nothing that is sent.
  const print = ['-p', ...session, '--verbose', '--output-format', 'stream-json', '--include-hook-events'];
  // A fresh session has no goal to inherit: its goal, if any, is in its message.
  const endAtFirstStop = options.fork !== undefined && options.sessionHasGoal === true;
  const args = withLaunchSettings([...print, ...inherited], guardSettings(probe, endAtFirstStop), options.cwd);
  return {
    args,
    guardNonce: probe.nonce,
    // The reviewer's own Stop hooks allow at once: bound to this ccc, so that what the reviewer's commands start does not inherit it as a switch (supervised-env.ts).
    env: { ...withoutCccMarkers(options.env), ...leaveNoCaches(options.env), [REVIEW_ENV]: String(process.pid), [POLICY_ENV]: JSON.stringify(options.policy) },
  };
}

/**
 * The reviewer's test runs leave the project as they found it where the runner allows: Python
 * writes no `__pycache__`, pytest no `.pytest_cache` (added to the user's own PYTEST_ADDOPTS).
 */
export function leaveNoCaches(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const addopts = env.PYTEST_ADDOPTS ?? '';
  return {
    PYTHONDONTWRITEBYTECODE: '1',
    PYTEST_ADDOPTS: addopts.includes('no:cacheprovider') ? addopts : `${addopts} -p no:cacheprovider`.trim(),
  };
}

/** What the reviewer's Stop hook prints when the session has a goal: the turn ends, whatever other hooks say. */
const REVIEWER_STOP_ANSWER = { continue: false, stopReason: 'ccc: the reviewer answers once' };

/**
 * A skill's (or custom slash command's) inline `!`-command is no tool call: PreToolUse never sees
 * it, and the skill's `allowed-tools` lets it run, say when the review message starts with the
 * skill's `/name` (docs/design/claude-facts.md, "A skill's shell commands"). Every claude ccc
 * supports obeys `disableSkillShellExecution` (the command is replaced by a placeholder); since
 * 2.1.332 the `PreSkillShellCommand` hook refuses it too. Older claude ignores that event's entry.
 */
const NO_SKILL_SHELL = { decision: 'block', reason: "ccc: the reviewer runs no skill's shell commands; run the project's checks with the Bash tool" };

function guardSettings(probe: GuardProbe = guardProbe(), endAtFirstStop = false): Record<string, unknown> {
  const command = [process.execPath, GUARD_SCRIPT].map(shellQuote).join(' ');
  const refuseSkillShell = { type: 'command', command: `echo ${shellQuote(JSON.stringify(NO_SKILL_SHELL))}`, timeout: 30 };
  const hooks: Record<string, unknown> = {
    SessionStart: [probe.hook],
    PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }],
    PreSkillShellCommand: [{ matcher: '*', hooks: [refuseSkillShell] }],
  };
  if (!endAtFirstStop) return { disableSkillShellExecution: true, hooks };
  const stop = { type: 'command', command: `echo ${shellQuote(JSON.stringify(REVIEWER_STOP_ANSWER))}`, timeout: 30 };
  return { disableSkillShellExecution: true, hooks: { ...hooks, Stop: [{ hooks: [stop] }] } };
}

/** Options passed on with their value(s); the variadic ones take every value up to the next option. */
const KEPT_WITH_VALUE = new Set(['--model', '--fallback-model', '--settings', '--setting-sources', '--agents']);
const KEPT_VARIADIC = new Set(['--disallowedTools', '--disallowed-tools', '--add-dir', '--mcp-config', '--plugin-dir']);
const KEPT_FLAGS = new Set(['--strict-mcp-config']);
/** Permissions: only their read-only rules are kept, so that the tools they load stay loaded. */
const ALLOWED_TOOLS = new Set(['--allowedTools', '--allowed-tools']);

export function inheritedArgs(claudeArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < claudeArgs.length; i++) {
    const arg = claudeArgs[i]!;
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    if (KEPT_FLAGS.has(arg)) out.push(arg);
    else if (KEPT_WITH_VALUE.has(name)) {
      if (inline !== undefined) out.push(arg);
      else if (i + 1 < claudeArgs.length) out.push(arg, claudeArgs[++i]!);
    } else if (KEPT_VARIADIC.has(name) || ALLOWED_TOOLS.has(name)) {
      const values = inline !== undefined ? [inline] : takeValues(claudeArgs, i + 1);
      if (inline === undefined) i += values.length;
      const kept = ALLOWED_TOOLS.has(name) ? readOnlyRules(values) : values;
      if (kept.length) out.push(name, ...kept);
    }
  }
  return out;
}

function takeValues(args: readonly string[], from: number): string[] {
  const values: string[] = [];
  for (let i = from; i < args.length && !args[i]!.startsWith('-'); i++) values.push(args[i]!);
  return values;
}

/** `Read`, `Glob`, `mcp__x__y` stay (they load tools); `Bash`, `Edit`, `Write(…)` go. */
function readOnlyRules(values: string[]): string[] {
  const rules = values
    .flatMap((v) => v.split(/,(?![^(]*\))|\s+(?![^(]*\))/))
    .map((r) => r.trim())
    .filter(Boolean);
  return rules.filter((rule) => {
    const tool = rule.replace(/\(.*$/s, '');
    return READ_ONLY_TOOLS.includes(tool) || tool.startsWith('mcp__');
  });
}

function withoutOption(args: string[], option: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === option) i++;
    else if (!args[i]!.startsWith(`${option}=`)) out.push(args[i]!);
  }
  return out;
}
