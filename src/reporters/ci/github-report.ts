/**
 * What a headless run hands GitHub Actions: the job summary (Markdown), the step outputs
 * (`completed`, `verified`, `verification`, `exit_code`, `outcome`, `reviews`, `cost_usd`,
 * `session_id`, `log_file`, `feedback`: the last verdict's, exact; `evidence`: what it rests on) and one annotation at the level
 * checkers/verdict-look.ts gives the outcome: `::notice` for a verified completion, `::warning` for a
 * focused or unverified one (the step still passes, but the job's page says so and what the
 * completion rests on), `::error` when the run ended without completion. The annotation's text reaches the job's
 * log: controls other than line ends are made spaces (an escape sequence shows as text); line ends
 * and everything else come back exactly, escaped as workflow commands must be.
 */
import { dollars } from '../../claude/usage.js';
import { outputEntry, workflowCommand } from './github-commands.js';
import { githubSummary } from './github-summary.js';
import { lookOf } from '../../checkers/verdict-look.js';
import { shownVerdict } from '../../checkers/verdict-text.js';
import { outcomeText, totalCost, type RunRecord } from './run-record.js';

const ANNOTATION_FEEDBACK_CHARS = 4000;
const LOG_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

export interface GithubReport {
  summary: string;
  outputs: string;
  /** One workflow command line, without its line end. */
  annotation: string;
}

export function githubReport(record: RunRecord, where: { logFile?: string; junitFile?: string; eventsFile?: string }): GithubReport {
  const lastVerdict = [...record.reviews].reverse().find((r) => r.result === 'complete' || r.result === 'not complete');
  const outputs: Array<[string, string]> = [
    ['completed', String(record.completed)],
    ['verified', String(record.verification === 'verified')],
    ['verification', record.verification],
    ['exit_code', record.exitCode === undefined ? '' : String(record.exitCode)],
    ['outcome', record.outcome],
    ['reviews', String(record.reviews.length)],
    ['cost_usd', String(totalCost(record))],
    ['session_id', record.sessionId ?? ''],
    ['log_file', where.logFile ?? ''],
    ['feedback', lastVerdict?.feedback ?? ''],
    ['evidence', lastVerdict ? shownVerdict(lastVerdict.result === 'complete', lastVerdict.evidence).details : ''],
  ];
  if (where.junitFile) outputs.push(['junit_file', where.junitFile]);
  if (where.eventsFile) outputs.push(['events_file', where.eventsFile]);

  const reviews = `${record.reviews.length} review${record.reviews.length === 1 ? '' : 's'}, ${dollars(totalCost(record))}`;
  const feedback = lastVerdict?.feedback ? `\nLast feedback (${lastVerdict.checker}): ${bounded(lastVerdict.feedback)}` : '';
  const annotation = workflowCommand(
    lookOf(record.verification).annotation,
    { title: annotationTitle(record) },
    forLog(`${annotationText(record, reviews)}${feedback}`),
  );
  return {
    summary: githubSummary(record, where),
    outputs: outputs.map(([name, value]) => outputEntry(name, value)).join(''),
    annotation,
  };
}

/** `ccc: completed, verified`, `ccc: completed, focused`, `ccc: iteration limit reached`. */
function annotationTitle(record: RunRecord): string {
  return record.completed ? `ccc: completed, ${record.verification}` : `ccc: ${outcomeText(record.outcome)}`;
}

/** What the run came to and what it rests on, in the last verdict's words (checkers/verdict-text.ts). */
function annotationText(record: RunRecord, reviews: string): string {
  if (!record.completed) return `${record.message ?? outcomeText(record.outcome)} (${reviews}, exit code ${record.exitCode ?? 'unknown'}).`;
  const look = lookOf(record.verification);
  const last = record.reviews[record.reviews.length - 1];
  const details = shownVerdict(true, last?.evidence).details;
  if (look.passes) return `The checker confirmed completion, ${details} (${reviews}).`;
  if (record.verification === 'unverified')
    return (
      `The checker found the work complete, but no verification command ran green during its review: the completion is unverified (${reviews}). ` +
      'supervisor.reviewer.require_evidence refuses such a completion.'
    );
  return `The checker found the work complete, but the completion is ${record.verification}${look.meaning ? `: ${look.meaning}` : ''}; ${details} (${reviews}).`;
}

function forLog(text: string): string {
  return text.replace(LOG_CONTROLS, ' ');
}

function bounded(text: string): string {
  const chars = Array.from(text);
  return chars.length > ANNOTATION_FEEDBACK_CHARS ? `${chars.slice(0, ANNOTATION_FEEDBACK_CHARS).join('')}…` : text;
}
