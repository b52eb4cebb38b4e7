/**
 * The help of the supervised modes (`ccc --supervisor --help`, and the end of `ccc --help`):
 * usage, every option of `supervisor-args.ts` (a test keeps the two tables in step) and the exit
 * codes (docs/exit-codes.md).
 */
const USAGE = `Supervised modes:
  ccc [provider] --supervisor [options] [--] [claude args…]             interactive: the Claude Code TUI
  ccc [provider] --supervisor -p "<task>" [options] [--] [claude args…]  headless, for CI
  echo "<task>" | ccc [provider] --supervisor [options]                 headless too (no terminal: stdin is the task)

Whenever the agent stops, the checkers review the work; until they confirm it is done, their
feedback becomes the agent's next message in the same session.

The default checker, the reviewer, is a forked Claude session that sees the whole conversation.
It may run the project's tests and read-only commands, never change the project (ccc config shows
what it may run), and costs a cached read of the conversation. ccc init writes a starter setup.`;

/** Each option of the supervised modes, as shown, with what it does. */
export const SUPERVISOR_OPTION_HELP: ReadonlyArray<{ names: string[]; usage: string; text: string }> = [
  { names: ['--supervisor'], usage: '--supervisor', text: 'run claude supervised (this mode)' },
  {
    names: ['-p', '--print'],
    usage: '-p, --print [task]',
    text: 'headless: run <task> (and what is piped on stdin) to completion, then exit with a code below',
  },
  {
    names: ['--checker'],
    usage: '--checker <name>',
    text: 'claude, codex, rule, hook, or a plugin path or package (ccc-supervisor/plugins/test-gate);\nrepeat it for a pipeline, in order (default: supervisor.checkers, else claude)',
  },
  { names: ['--max-iterations'], usage: '--max-iterations <n>', text: 'reviews before ccc hands back without completion (default 20)' },
  { names: ['--timeout'], usage: '--timeout <seconds>', text: 'time limit of each checker (default 600)' },
  {
    names: ['--prompt'],
    usage: '--prompt <path>',
    text: "the reviewer's instructions\n(default ./SUPERVISOR.md, else supervisor.prompt_path: ~/.claude/SUPERVISOR.md)",
  },
  { names: ['--observe'], usage: '--observe[=port]', text: 'let others watch the session (ccc observe <url>, or a browser); prints the URL' },
  { names: ['--log-level'], usage: '--log-level <level>', text: 'debug, info, warn or error (the log is in ~/.claude/ccc/)' },
  { names: ['--config'], usage: '--config <path>', text: 'use this project config file instead of searching for one' },
  { names: ['--json'], usage: '--json', text: "headless: print ccc's event stream as JSON lines on stdout instead of text" },
  {
    names: ['--report'],
    usage: '--report <report>',
    text: 'headless: github (the job summary, outputs and an annotation; on by itself when\nGITHUB_ACTIONS=true), junit=<file>, events=<file> (the --json lines), or none; repeatable',
  },
  { names: ['-h', '--help'], usage: '-h, --help', text: "this help (claude's own: ccc -- --help)" },
];

const EXIT_CODES = `Exit codes (headless; interactive mode exits with the agent's code):
  0      the checkers confirmed completion
  1      an unexpected error
  2      bad usage or configuration (the message says what and how to fix)
  3      a limit ended the loop without completion (iterations, no progress, cost cap)
  4      a checker failed (crash, timeout, unparseable verdict)
  other  the agent's own non-zero exit code`;

export function supervisorHelp(): string {
  const width = Math.max(...SUPERVISOR_OPTION_HELP.map((o) => o.usage.length)) + 2;
  const indent = (text: string) => text.replaceAll('\n', `\n${' '.repeat(width + 2)}`);
  const options = SUPERVISOR_OPTION_HELP.map((o) => `  ${o.usage.padEnd(width)}${indent(o.text)}`).join('\n');
  const passThrough =
    "Options ccc does not know are claude's and pass through to every agent turn; after -- everything\ndoes, e.g. ccc --supervisor -p \"fix the tests\" -- --allowedTools Bash. Session flags (--continue,\n--resume, --fork-session, --session-id, --worktree, …) choose the first turn's session; every later\nturn resumes the agent's own.";
  return `${USAGE}\n\nOptions of the supervised modes:\n${options}\n\n${passThrough}\n\n${EXIT_CODES}\n`;
}
