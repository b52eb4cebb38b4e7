/**
 * What a verdict rests on: the verification commands the checkers ran during a review, each with
 * its exit code and what its runner's output said. A record is one run; its strength is derived
 * here (`strengthOf`), never stored, so that a record read back from an older log or a plugin is
 * judged by the same rule:
 *
 * - `whole`: it exited 0, ran tests that passed, and was the project's test command (or every
 *   workspace's) without a filter: `scope: 'whole'`;
 * - `focused`: the same, but of a part of the suite (a path, a name filter, deselected tests, one
 *   workspace), or of a scope nobody recorded (an older record, a plugin's own);
 * - `none`: no test evidence: it ran no test, only listed them, printed no runner's summary, ran
 *   no test runner at all (`echo 5 passed`, `tsc --noEmit`), or has no exit code;
 * - `failing`: it exited non-zero (unless its runner said it ran no test: pytest's exit 5), or
 *   its runner reported failing tests whatever the exit code.
 *
 * A leaf: the session state, the observer and every report read evidence through it. Commands and
 * runner lines are the model's or the project's text: shown through the inert stripper wherever
 * they reach a terminal.
 */
export interface Evidence {
  command: string;
  /** 0 passed; null: no exit code (interrupted, timed out, or masked by a pipe). */
  exit_code: number | null;
  /** The number of tests that passed, when the runner said it (skipped, xfailed and deselected ones are not passed). */
  tests?: number;
  /** Why a command verifies nothing: `it ran no test`, `it only collects the tests (\`--co\`)`, `\`npm test\` runs \`echo 5 passed\`: no test runner`. */
  not_counted?: string;
  /** How much of the suite a passing run covered; absent on a run that is no test evidence, and on records older than the field. */
  scope?: Scope;
  /** What made a run focused, in a few words: `a filter (\`-k\`)`, `a path`, `one workspace`, `deselected tests`. */
  focus?: string;
  /** Tests the runner saw but did not pass or fail, by kind. */
  not_passed?: NotPassed;
  /** Files of tests the agent changed since the task began in a way that can make them pass without the work (weakened), which this run may rest on. */
  changed_tests?: string[];
  /** The number of tests that failed, when the runner said it: a run that exited 0 with failures is a failing run too (`jest || true`). */
  failed?: number;
  /** A failing run's failing tests, as its runner named them, each with its first failure line: `tests/test_x.py::test_y: assert 1 == 2`. */
  failures?: string[];
}

type Scope = 'whole' | 'focused';

/** `skipped` also counts cargo's `ignored` and mocha's `pending`; `deselected` also cargo's `filtered out`. */
export interface NotPassed {
  skipped?: number;
  todo?: number;
  xfailed?: number;
  xpassed?: number;
  deselected?: number;
}

export type Strength = 'whole' | 'focused' | 'none' | 'failing';

const NOT_PASSED_KINDS = ['skipped', 'todo', 'xfailed', 'xpassed', 'deselected'] as const;
const SCOPES: readonly string[] = ['whole', 'focused'];

/**
 * A checker's `evidence`, read defensively: a list of records with a string `command` and an
 * integer-or-null `exit_code`, else none at all. Fields added since the first shape are kept when
 * well-formed and dropped when not (a record without `scope` reads as focused, never as whole).
 */
export function validEvidence(value: unknown): Evidence[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const records: Evidence[] = [];
  for (const item of value) {
    const record = evidenceRecord(item);
    if (!record) return undefined;
    records.push(record);
  }
  return records;
}

function evidenceRecord(value: unknown): Evidence | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const { command, exit_code, tests, not_counted } = v;
  if (typeof command !== 'string' || !(exit_code === null || Number.isInteger(exit_code))) return undefined;
  if (tests !== undefined && !count(tests)) return undefined;
  if (not_counted !== undefined && typeof not_counted !== 'string') return undefined;
  const failed = count(v.failed) && v.failed > 0 ? { failed: v.failed } : {};
  const notPassed = notPassedOf(v.not_passed);
  const changed = stringsOf(v.changed_tests);
  const failures = stringsOf(v.failures);
  return {
    command,
    exit_code: exit_code as number | null,
    ...(tests === undefined ? {} : { tests: tests }),
    ...(not_counted === undefined ? {} : { not_counted }),
    ...(typeof v.scope === 'string' && SCOPES.includes(v.scope) ? { scope: v.scope as Scope } : {}),
    ...(typeof v.focus === 'string' ? { focus: v.focus } : {}),
    ...(notPassed ? { not_passed: notPassed } : {}),
    ...(changed?.length ? { changed_tests: changed } : {}),
    ...failed,
    ...(failures?.length ? { failures } : {}),
  };
}

function count(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

function stringsOf(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((s) => typeof s === 'string') ? value : undefined;
}

function notPassedOf(value: unknown): NotPassed | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const kept = Object.fromEntries(NOT_PASSED_KINDS.filter((k) => count(v[k]) && v[k] > 0).map((k) => [k, v[k] as number]));
  return Object.keys(kept).length ? kept : undefined;
}

/** What one run is worth as evidence (see the top of this file). */
export function strengthOf(e: Evidence): Strength {
  if ((e.failed ?? 0) > 0 && e.exit_code !== null) return 'failing';
  if (e.exit_code === null) return 'none';
  if (e.exit_code !== 0) return e.not_counted === undefined ? 'failing' : 'none';
  if (e.not_counted !== undefined || e.tests === 0) return 'none';
  return e.scope === 'whole' ? 'whole' : 'focused';
}

/** A run that exited 0 and ran tests that passed, whole or focused. */
export function passed(e: Evidence): boolean {
  const strength = strengthOf(e);
  return strength === 'whole' || strength === 'focused';
}

/** The commands that ran green, each once, in the order they ran. */
export function passingCommands(evidence: readonly Evidence[]): string[] {
  return [...new Set(evidence.filter(passed).map((e) => e.command))];
}

/**
 * The failing runs that nothing after them answered: a failure is answered by a later passing run
 * of the same command, or by a later passing run of the whole suite. A `complete` over one of
 * these contradicts the reviewer's own evidence.
 */
export function unansweredFailures(evidence: readonly Evidence[]): Evidence[] {
  return evidence.filter((e, i) => {
    if (strengthOf(e) !== 'failing') return false;
    return !evidence.slice(i + 1).some((later) => passed(later) && (strengthOf(later) === 'whole' || same(later.command, e.command)));
  });
}

/** The files of weakened tests that any passing run rests on, each once. */
export function changedTestsOf(evidence: readonly Evidence[]): string[] {
  return [...new Set(evidence.filter(passed).flatMap((e) => e.changed_tests ?? []))];
}

function same(a: string, b: string): boolean {
  return squeeze(a) === squeeze(b);
}

function squeeze(command: string): string {
  return command.replace(/\s+/g, ' ').trim();
}

const SHOWN_CHARS = 60;

/** A command on one line, bounded. */
export function shortCommand(command: string): string {
  const line = squeeze(command);
  return line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS - 1)}…` : line;
}

/** `12 tests`, `3 of 4 tests, 1 skipped`, `2 tests, 1 deselected` (a count the runner did not give is left out). */
function countText(e: Evidence): string {
  const others = NOT_PASSED_KINDS.filter((k) => (e.not_passed?.[k] ?? 0) > 0).map((k) => `${e.not_passed![k]} ${k}`);
  const seen = NOT_PASSED_KINDS.reduce((sum, k) => sum + (k === 'deselected' ? 0 : (e.not_passed?.[k] ?? 0)), 0);
  const tests = e.tests === undefined ? '' : seen > 0 ? `${e.tests} of ${e.tests + seen} tests` : `${e.tests} test${e.tests === 1 ? '' : 's'}`;
  return [tests, ...others].filter(Boolean).join(', ');
}

/** `npm test (12 tests)`, `pytest -k x (3 of 4 tests, 1 deselected; a filter (\`-k\`))`. */
export function runText(e: Evidence): string {
  const details = [countText(e), e.focus ?? ''].filter(Boolean).join('; ');
  return details ? `${shortCommand(e.command)} (${details})` : shortCommand(e.command);
}

/** `npm test (exit 1: tests/test_x.py::test_y)`, `make lint (no exit code)`. */
export function failureText(e: Evidence): string {
  const exit = e.exit_code === null ? 'no exit code' : `exit ${e.exit_code}`;
  const first = e.failures?.[0]?.split(': ')[0];
  const more = (e.failures?.length ?? 0) > 1 ? ` and ${e.failures!.length - 1} more` : '';
  return `${shortCommand(e.command)} (${exit}${first ? `: ${first}${more}` : ''})`;
}

/** `npm test: it ran no test`. */
export function notCountedText(e: Evidence): string {
  return `${shortCommand(e.command)}: ${e.not_counted ?? (e.exit_code === null ? 'no exit code' : 'it ran no test')}`;
}
