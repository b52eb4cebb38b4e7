/**
 * How the reviewers of one round decide together (`supervisor.agreement`), and what a round says
 * when they did not agree. `all`: every reviewer must find the work complete; `one`: one is
 * enough. When two reviewers answered differently (or, under `one`, none found it complete), the
 * round's verdict carries every reviewer's verdict (`opinions`) and its feedback names who said
 * what, so that every report and the agent's next message show both sides, not only the last.
 */
import { verificationDetails, verificationOf } from './verification.js';
import type { Opinion, Verdict } from './types.js';

export type Agreement = 'all' | 'one';
export type { Opinion };

export function opinionOf(checker: string, verdict: Verdict): Opinion {
  return {
    checker,
    completed: verdict.completed,
    feedback: verdict.feedback,
    ...(verdict.evidence ? { verification: verificationOf(verdict.completed, verdict.evidence) } : {}),
    ...(verdict.evidence ? { details: verificationDetails(verdict.completed, verdict.evidence) } : {}),
  };
}

/** The round's outcome with the reviewers' verdicts in it, when more than one reviewer answered and they are not all of one mind that the work is done. */
export function withOpinions<T extends { verdict: Verdict; checker: string }>(outcome: T, said: readonly Opinion[], agreement: Agreement): T {
  if (said.length < 2 || said.every((o) => o.completed)) return outcome;
  const rule = agreement === 'all' ? 'the work is complete only when every reviewer finds it so' : 'one reviewer finding the work complete is enough';
  const names = (complete: boolean) => said.filter((o) => o.completed === complete).map((o) => o.checker);
  // The first line says who said what: a report with room for one line (a table row) shows it whole.
  const head = said.some((o) => o.completed)
    ? `The reviewers disagree: ${listText(names(true))} found the work complete, ${listText(names(false))} did not (${rule}).`
    : `No reviewer found the work complete: neither ${listText(names(false), 'nor')} (${rule}).`;
  const lines = said.map((o) => `- ${o.checker}: ${opinionText(o)}`);
  return { ...outcome, verdict: { ...outcome.verdict, feedback: [head, ...lines].join('\n'), opinions: [...said] } };
}

/** One reviewer's verdict in words: `complete (verified by: …): its feedback`. */
export function opinionText(o: Opinion): string {
  const word = o.completed ? 'complete' : 'not complete';
  const details = o.details ? ` (${o.details})` : '';
  const feedback = o.feedback.trim();
  return `${word}${details}${feedback ? `: ${feedback}` : ''}`;
}

function listText(names: readonly string[], last = 'and'): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}
