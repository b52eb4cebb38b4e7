/**
 * What a verdict rests on: the verification commands the reviewer ran during its review, each with
 * its exit code (null when it ended without one: interrupted, timed out). A command passes when it
 * exited 0 and ran tests that passed (`not_counted` says why one that exited 0 did not: it only
 * listed them, it selected none); a `complete` with no passing command is shown as unverified.
 * Commands are the model's text: shown through the inert stripper wherever they reach a terminal.
 */
export interface Evidence {
  command: string;
  /** 0 passed; null: no exit code (interrupted or timed out). */
  exit_code: number | null;
  /** The number of tests that ran, when the runner said it. */
  tests?: number;
  /** Why a command that exited 0 verifies nothing: `it ran no test`, `it only collects the tests (\`--co\`)`. */
  not_counted?: string;
}

/** A checker's `evidence` when it is a list of `{ command, exit_code, tests?, not_counted? }`; anything else is dropped. */
export function validEvidence(value: unknown): Evidence[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every((e: unknown) => {
    if (!e || typeof e !== 'object') return false;
    const { command, exit_code, tests, not_counted } = e as Record<string, unknown>;
    return (
      typeof command === 'string' &&
      (exit_code === null || Number.isInteger(exit_code)) &&
      (tests === undefined || (Number.isInteger(tests) && (tests as number) >= 0)) &&
      (not_counted === undefined || typeof not_counted === 'string')
    );
  });
  return valid
    ? (value as Evidence[]).map((e) => ({
        command: e.command,
        exit_code: e.exit_code,
        ...(e.tests === undefined ? {} : { tests: e.tests }),
        ...(e.not_counted === undefined ? {} : { not_counted: e.not_counted }),
      }))
    : undefined;
}

/** Whether this command verifies: it exited 0 and ran tests that passed. */
function passed(e: Evidence): boolean {
  return e.exit_code === 0 && e.not_counted === undefined && e.tests !== 0;
}

/** The commands that ran green, each once, in the order they ran. */
export function passingCommands(evidence: readonly Evidence[]): string[] {
  return [...new Set(evidence.filter(passed).map((e) => e.command))];
}

/** `npm test (12 tests)`: a passing command with the number of tests of its last passing run, when known. */
function withCount(evidence: readonly Evidence[], command: string): string {
  const tests = evidence.filter((e) => e.command === command && passed(e)).pop()?.tests;
  return tests === undefined ? short(command) : `${short(command)} (${tests} test${tests === 1 ? '' : 's'})`;
}

const SHOWN_CHARS = 60;

/**
 * `verified by: npm test (12 tests)` / `unverified` for a complete verdict, `failed: npm test (exit 1)` for
 * one that is not; empty when the checker reports no evidence (a rule or plugin checker).
 */
export function evidenceText(evidence: readonly Evidence[] | undefined, completed: boolean): string {
  if (evidence === undefined) return '';
  if (completed) {
    const passing = passingCommands(evidence);
    return passing.length ? `verified by: ${passing.map((c) => withCount(evidence, c)).join(', ')}` : 'unverified';
  }
  const failing = evidence.filter((e) => e.exit_code !== 0);
  return failing.length
    ? `failed: ${failing.map((e) => `${short(e.command)} (${e.exit_code === null ? 'no exit code' : `exit ${e.exit_code}`})`).join(', ')}`
    : '';
}

function short(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS - 1)}…` : line;
}
