/**
 * Worked example plugin: a test gate. It runs the project's test command and refuses the stop
 * while it fails; the feedback names the failing tests (parsed from the output of vitest, jest,
 * node:test, pytest and go test) and shows the end of the output.
 *
 *   supervisor: { checkers: [{ use: 'ccc-supervisor/plugins/test-gate', command: 'npm test', timeout_seconds: 900 }, 'claude'] }
 *
 * or, in a ccc.config.ts, typed: `import testGate from 'ccc-supervisor/plugins/test-gate'` and
 * `checkers: [testGate({ command: 'npm test', timeout_seconds: 900 }), 'claude']`.
 *
 * Installed with ccc, it is `ccc-supervisor/plugins/test-gate`; this file is also a template for your own.
 */
import { stripVTControlCharacters } from 'node:util';
import { z } from 'zod';
import { commandEvidence, defineChecker, runShellCommand, tailLines, type CheckContext, type Verdict } from 'ccc-supervisor';

export interface TestGateOptions {
  /** The test command, run through the shell in the project directory (default `npm test`). */
  command?: string;
  /** Read by the pipeline: this checker's time limit. */
  timeout_seconds?: number;
}

const MAX_NAMES = 20;

// timeout_seconds is the pipeline's, which checks it.
const optionsSchema = z
  .object({
    command: z
      .string()
      .refine((c) => c.trim() !== '')
      .nullish()
      .transform((c) => c ?? 'npm test'),
    timeout_seconds: z.unknown(),
  })
  .strict();

/** The options with their defaults; a bad command first, then any unknown key, is the error. */
function parseOptions(options: TestGateOptions = {}): z.output<typeof optionsSchema> {
  const parsed = optionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const raw = options as Record<string, unknown>;
  if (parsed.error.issues.some((issue) => issue.path[0] === 'command'))
    throw new Error(`option "command" must be a non-empty string, got ${JSON.stringify(raw.command)}`);
  const unknown = parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []));
  throw new Error(`unknown option(s) ${unknown.join(', ')}; test-gate takes command and timeout_seconds`);
}

export default defineChecker({
  name: 'test-gate',
  // Lets a ccc.config.ts write `checkers: [testGate({ command: 'npm test' })]`: ccc finds this module again and runs it in its own thread.
  module: import.meta.url,
  create(options: TestGateOptions = {}) {
    const { command } = parseOptions(options);
    return {
      async check(ctx: CheckContext, signal: AbortSignal): Promise<Verdict> {
        // Leave a little of the checker's time limit to report a hanging test run as feedback.
        const timeoutMs = Math.max(1000, ctx.timeoutSeconds * 1000 - 3000);
        const run = await runShellCommand(command, { cwd: ctx.cwd, env: ctx.env, signal, timeoutMs });
        if (run.spawnError) throw run.spawnError;
        if (run.aborted) throw new Error(`\`${command}\` was stopped: the check was cancelled`);
        // The run is the verdict's evidence, read as the reviewer's runs are: verified when it ran tests and passed.
        const evidence = [commandEvidence(command, run.timedOut ? null : run.exitCode, run.output, ctx.cwd)];
        if (run.exitCode === 0 && !run.timedOut) return { completed: true, feedback: `\`${command}\` passed`, evidence };
        return { completed: false, feedback: failureFeedback(command, run.output, run.timedOut ? undefined : run), evidence };
      },
    };
  },
});

function failureFeedback(command: string, output: string, end: { exitCode: number | null; signal: string | null } | undefined): string {
  const names = failingTests(output);
  const head =
    end === undefined
      ? `The tests did not finish: \`${command}\` ran past its time limit and was stopped.`
      : `The tests fail: \`${command}\` ${end.signal ? `was killed by ${end.signal}` : `exited with code ${end.exitCode}`}.`;
  const list =
    names.length > 0
      ? `\nFailing tests:\n${names
          .slice(0, MAX_NAMES)
          .map((n) => `- ${n}`)
          .join('\n')}${names.length > MAX_NAMES ? `\n- … and ${names.length - MAX_NAMES} more` : ''}`
      : '';
  return `${head}${list}\nLast lines of the output:\n${tailLines(output)}\nFix the code (not the tests, unless they are wrong) and run \`${command}\` until it passes.`;
}

/** Patterns of the lines that name one failing test, per runner; group 1 is the name. */
const FAILURE_LINES: RegExp[] = [
  /^\s*FAIL\s+(\S.*?)\s*$/, // vitest / jest: " FAIL  test/a.test.ts > suite > name"
  /^\s*[×✕✗✖]\s+(.+?)(?:\s+\(?\d+(?:\.\d+)?\s*m?s\)?)?\s*$/, // vitest ×, jest ✕, node:test spec ✖
  /^\s*not ok \d+ - (.+?)(?:\s+#\s*(?!SKIP|TODO).*)?\s*$/, // node:test / TAP
  /^FAILED (\S+::\S+)/, // pytest summary
  /^(\S+::\S+) FAILED\b/, // pytest -v
  /^\s*--- FAIL: (\S+)/, // go test
];

/** The failing tests named in a test runner's output, in order, without duplicates. */
export function failingTests(output: string): string[] {
  const names: string[] = [];
  for (const raw of stripVTControlCharacters(output).split(/\r?\n/)) {
    if (/^\s*not ok \d+ - .*#\s*(SKIP|TODO)\b/i.test(raw)) continue;
    for (const pattern of FAILURE_LINES) {
      const name = pattern.exec(raw)?.[1]?.trim();
      // A header such as node:test's "✖ failing tests:" names no test.
      if (name && !name.endsWith(':')) {
        addName(names, name);
        break;
      }
    }
  }
  return names;
}

/**
 * Runners name a test twice: vitest as "file > suite > test" and "suite > test", jest as a file
 * and as "test". Keep the most specific form once.
 */
function addName(names: string[], name: string): void {
  const nested = (outer: string, inner: string) => outer === inner || outer.endsWith(` > ${inner}`) || outer.endsWith(` › ${inner}`);
  if (names.some((known) => nested(known, name))) return;
  const shorter = names.findIndex((known) => nested(name, known));
  if (shorter === -1) names.push(name);
  else names[shorter] = name;
}
