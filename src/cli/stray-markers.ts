/**
 * ccc's own markers found in the environment a supervised launch was given (supervised-env.ts):
 * each names the ccc that set it, by pid. One that an enclosing ccc set (this launch runs under
 * it: a test suite its agent or reviewer runs) is expected and said nothing of; any other is a
 * stray copy (an export, a leftover): said once on stderr. Neither kind is passed on: the agent
 * and the reviewer get this ccc's markers only. The stop channel's and the reviewer policy's
 * variables carry no pid; they are dropped without a word.
 */
import { isAncestor } from '../process/process-ancestry.js';
import { REVIEW_ENV, SUPERVISED_ENV } from '../loop/supervised-env.js';

/** The warning lines for the stray markers in `env` (empty when there are none). */
export function strayMarkerWarnings(env: NodeJS.ProcessEnv, enclosing: (pid: number) => boolean = (pid) => isAncestor(pid)): string[] {
  return [SUPERVISED_ENV, REVIEW_ENV]
    .filter((name) => env[name] !== undefined && !fromEnclosingCcc(env[name], enclosing))
    .map(
      (name) =>
        `ccc: warning: ${name} is set in the environment (${JSON.stringify(env[name]!.slice(0, 40))}), but no ccc running this one set it; ccc ignores it and does not pass it on (it marks what a ccc starts, and is never taken from the environment)\n`,
    );
}

function fromEnclosingCcc(value: string, enclosing: (pid: number) => boolean): boolean {
  const pid = Number(value);
  return Number.isSafeInteger(pid) && pid > 1 && enclosing(pid);
}
