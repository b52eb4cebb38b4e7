/**
 * What a verdict rests on: the verification commands the reviewer ran during its review, each with
 * its exit code (null when it ended without one: interrupted, timed out). A `complete` with no
 * passing command is shown as unverified. Commands are the model's text: shown through the inert
 * stripper wherever they reach a terminal.
 */
export interface Evidence {
  command: string;
  /** 0 passed; null: no exit code (interrupted or timed out). */
  exit_code: number | null;
}

/** A checker's `evidence` when it is a list of `{ command, exit_code }`; anything else is dropped. */
export function validEvidence(value: unknown): Evidence[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every((e: unknown) => {
    if (!e || typeof e !== 'object') return false;
    const { command, exit_code } = e as Record<string, unknown>;
    return typeof command === 'string' && (exit_code === null || Number.isInteger(exit_code));
  });
  return valid ? (value as Evidence[]).map((e) => ({ command: e.command, exit_code: e.exit_code })) : undefined;
}

/** The commands that ran green, each once, in the order they ran. */
export function passingCommands(evidence: readonly Evidence[]): string[] {
  return [...new Set(evidence.filter((e) => e.exit_code === 0).map((e) => e.command))];
}

const SHOWN_CHARS = 60;

/**
 * `verified by: npm test` / `unverified` for a complete verdict, `failed: npm test (exit 1)` for
 * one that is not; empty when the checker reports no evidence (a rule or plugin checker).
 */
export function evidenceText(evidence: readonly Evidence[] | undefined, completed: boolean): string {
  if (evidence === undefined) return '';
  if (completed) {
    const passing = passingCommands(evidence);
    return passing.length ? `verified by: ${passing.map(short).join(', ')}` : 'unverified';
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
