/**
 * The starter `ccc.config.ts` that `ccc init` writes: every key commented, the pipeline shown
 * as `rule` then `claude` (the cheap deterministic check first, the model review only when it
 * passes). The rule is active only when a test command was found; otherwise it stays commented,
 * because a rule that can never pass would block the agent forever; `require_evidence: 'whole-suite'`
 * likewise only when that command ends in a test runner ccc reads. `defineConfig` is imported only
 * where the project can resolve ccc-supervisor (`importable`); elsewhere the file exports the plain
 * object, which ccc loads the same and an editor does not flag.
 */
export function configTemplate(options: { testCommand?: string; completionMarker: string; importable: boolean; wholeSuite?: boolean }): string {
  const rule = options.testCommand
    ? `      { use: 'rule', commands: [${quote(options.testCommand)}] },`
    : `      // { use: 'rule', commands: ['npm test'] },   // no test command found: fill in yours`;
  return `// ccc configuration (written by \`ccc init\`). \`ccc config\` shows the effective values and
// where each one came from. Precedence, lowest first: built-in defaults < ~/.claude/ccc.json <
// this file < CCC_* environment variables < command-line flags.
${options.importable ? IMPORTED_HEAD : PLAIN_HEAD}
  supervisor: {
    // Checkers run in this order every time the agent stops. The first one that answers
    // "not completed" ends the round and its feedback becomes the agent's next message.
    checkers: [
      // 1. Deterministic and free: shell commands that must exit 0 in the project directory.
      //    Also: must_match / must_not_match (regexes over the agent's last message) and
      //    require_marker: true (the completion marker on a line of its own).
${rule}
      // 2. The forked Claude reviewer, instructed by ./SUPERVISOR.md. It runs only when the
      //    rule above passes, so no model time is spent while the tests are red.
      'claude',
      // A hook in any language: the context arrives as JSON on stdin, the answer is
      // {"completed": true|false, "feedback": "..."} on stdout.
      // { use: 'hook', command: 'python3 scripts/review.py', timeout_seconds: 120 },
      // A plugin that comes with ccc (found wherever ccc is installed, in the project or globally),
      // with its own options; your own plugins go by path (TypeScript loads without a build step):
      // { use: 'ccc-supervisor/plugins/test-gate', command: 'npm test' },
      // { use: './checkers/my-checker.ts' },
    ],
    // Reviews per task before ccc gives up and hands back to you (exit 3 in headless runs).
    max_iterations: 20,
    // Time limit of each checker, in seconds (a checker may set its own timeout_seconds).
    timeout_seconds: 600,
    // Stop when a checker repeats essentially the same feedback this many times in a row
    // while the work tree does not change.
    no_progress_limit: 3,
    // Stop when the agent and the reviewer together have spent this much (USD).
    // max_cost_usd: 5,
    // The same for one task (from your prompt to the next one; headless: the run).
    // max_task_cost_usd: 2,
    // At a limit, give the agent one last (unreviewed) turn to write down where the work stands.
    // wind_down: true,
    // Wait out the model's rate limits and overloads (first 60 s, then twice as long each time,
    // at most 15 min a step) for up to this many minutes in all, then resume the session.
    // limit_wait_minutes: 300,
    // What the reviewer's "complete" needs (docs/reviewer.md): 'whole-suite' accepts it only when the
    // project's whole test suite ran green during the review, on tests the agent did not weaken (the
    // rule above runs it at every stop, so it costs no more); true: any passing run of the tests
    // (a focused one, or one resting on tests the agent changed); false: the reviewer's word.
${options.wholeSuite ? '' : `    // (${options.testCommand ? `\`${options.testCommand}\` runs no test runner ccc reads` : 'no test command was found'}: 'whole-suite' could never be met.)\n`}    ${options.wholeSuite ? '' : '// '}reviewer: { require_evidence: 'whole-suite' },
    // Used by the reviewer and by rules with require_marker.
    completion_marker: ${quote(options.completionMarker)},
    // Where the reviewer's instructions come from when ./SUPERVISOR.md does not exist.
    // prompt_path: '~/.claude/SUPERVISOR.md',
    // log_level: 'info',   // debug | info | warn | error; logs go to ~/.claude/ccc/
  },
  // Plugin modules (paths or package names) loaded at start; each one can then be named in
  // supervisor.checkers by its checker name.
  // plugins: ['./checkers/no-leftovers.ts'],
  // The agent: the claude executable and arguments added to every launch.
  // claude: { command: 'claude', args: [] },
}${options.importable ? ')' : ''};
`;
}

const IMPORTED_HEAD = `import { defineConfig } from 'ccc-supervisor';

export default defineConfig({`;

const PLAIN_HEAD = `// ccc-supervisor is not installed in this project, so nothing is imported. For types and
// completion in your editor: npm install --save-dev ./ccc-supervisor-<version>.tgz (from its tarball,
// see its docs/install.md), then write
// import { defineConfig } from 'ccc-supervisor'; and export default defineConfig({ … }).
export default {`;

/** A single-quoted TypeScript string literal. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}
