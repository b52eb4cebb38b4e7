/**
 * One headless run as a JUnit XML report, for the CI systems that read test results (GitLab,
 * Jenkins, Buildkite, CircleCI, Azure): one test suite for the run, one test case per review (a
 * review that found the work incomplete is a failure whose message is the feedback; a checker
 * that failed is an error), and a last case, `outcome`, that fails when the run ended without the
 * checker confirming completion, and also when the checker found the work complete but not verified:
 * a failure of type `focused` (tests ran green, but a selection of them) or `unverified` (no
 * verification command ran green). Neither schema has a state
 * between pass and failure that carries a message (Ant's has no `skipped`; Jenkins' `skipped`
 * takes no attribute), and a pass would say "verified" to every reader of the report; Jenkins
 * marks a build with failed cases unstable, not failed, which is what an unverified completion is.
 * The run's exit code is the same as for a verified one (0). It keeps to what both common schemas require, the Jenkins JUnit
 * one and Apache Ant's (a `testsuites` root without attributes; `package`, `id`, `timestamp`
 * without a zone, `hostname`, both `system-out` and `system-err`; at most one failure per case).
 */
import { lookOf } from '../../checkers/verdict-look.js';
import { shownVerdict } from '../../checkers/verdict-text.js';
import { cacheShare, costText, dollars, percent } from '../../claude/usage.js';
import { durationText, firstLine, outcomeText, totalCost, verificationText, type ReviewRecord, type RunRecord } from './run-record.js';
import { capsSpend, capsText } from './spend-text.js';
import { xmlAttribute, xmlText } from './xml-text.js';

const NAME_CHARS = 200;

export function junitReport(record: RunRecord, where: { hostname: string; logFile?: string; now?: Date }): string {
  const cases = [...record.reviews.map(reviewCase), outcomeCase(record)];
  const failures = cases.filter((c) => c.problem?.kind === 'failure').length;
  const errors = cases.filter((c) => c.problem?.kind === 'error').length;
  const started = record.startedAt !== undefined && !Number.isNaN(Date.parse(record.startedAt)) ? new Date(record.startedAt) : (where.now ?? new Date());
  const suite = {
    name: name(record.task === undefined ? '' : firstLine(record.task)) || 'ccc run',
    package: 'ccc',
    id: '0',
    tests: String(cases.length),
    failures: String(failures),
    errors: String(errors),
    time: seconds(record.durationMs),
    timestamp: started.toISOString().slice(0, 19),
    hostname: name(where.hostname) || 'localhost',
  };
  const properties: Array<[string, string]> = [
    ['outcome', record.outcome],
    ['completed', String(record.completed)],
    ['verification', record.verification],
    ['exit_code', record.exitCode === undefined ? '' : String(record.exitCode)],
    ['reviews', String(record.reviews.length)],
    ['cost_usd', String(totalCost(record))],
    ['agent_cost_usd', String(record.agentCostUsd)],
    ['review_cost_usd', String(record.reviewUsage.cost_usd)],
    ['review_cache_share', String(Math.round(cacheShare(record.reviewUsage) * 1000) / 1000)],
    ...Object.entries(capsSpend(record)).flatMap(([key, usd]): Array<[string, string]> => (usd === null ? [] : [[key, String(usd)]])),
    ...(record.sessionId ? ([['session_id', record.sessionId]] as Array<[string, string]>) : []),
    ...(record.task !== undefined ? ([['task', record.task]] as Array<[string, string]>) : []),
    ...(where.logFile ? ([['log_file', where.logFile]] as Array<[string, string]>) : []),
  ];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  out.push(
    `  <testsuite ${Object.entries(suite)
      .map(([k, v]) => `${k}="${xmlAttribute(v)}"`)
      .join(' ')}>`,
  );
  out.push('    <properties>');
  for (const [key, value] of properties) out.push(`      <property name="${key}" value="${xmlAttribute(value)}"/>`);
  out.push('    </properties>');
  for (const c of cases) {
    const open = `    <testcase name="${xmlAttribute(c.name)}" classname="${c.classname}" time="${seconds(c.durationMs)}"`;
    if (!c.problem) {
      out.push(`${open}/>`);
      continue;
    }
    const p = c.problem;
    out.push(
      `${open}>`,
      `      <${p.kind} type="${xmlAttribute(p.type)}" message="${xmlAttribute(p.message)}">${xmlText(p.text)}</${p.kind}>`,
      '    </testcase>',
    );
  }
  out.push(
    `    <system-out>${xmlText(plainSummary(record, where.logFile))}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
    '</testsuites>',
    '',
  );
  return out.join('\n');
}

interface Case {
  name: string;
  classname: string;
  durationMs?: number;
  problem?: { kind: 'failure' | 'error'; type: string; message: string; text: string };
}

function reviewCase(review: ReviewRecord): Case {
  const c: Case = { name: `review ${review.n} (${name(review.checker) || 'checker'})`, classname: 'ccc.review', durationMs: review.durationMs };
  const message = name(firstLine(review.feedback));
  if (review.result === 'not complete') c.problem = { kind: 'failure', type: 'not-complete', message, text: review.feedback };
  else if (review.result === 'failed') c.problem = { kind: 'error', type: 'checker-failed', message, text: review.feedback };
  else if (review.result === 'cancelled') c.problem = { kind: 'error', type: 'cancelled', message: message || 'review cancelled', text: review.feedback };
  else if (review.result === 'unfinished') c.problem = { kind: 'error', type: 'unfinished', message: 'the review has no verdict in the event log', text: '' };
  return c;
}

function outcomeCase(record: RunRecord): Case {
  const c: Case = { name: 'outcome', classname: 'ccc.run', durationMs: record.durationMs };
  if (!record.completed) {
    const text = [outcomeText(record.outcome), record.message].filter(Boolean).join(': ');
    c.problem = { kind: 'failure', type: record.outcome, message: name(text), text };
  } else if (!lookOf(record.verification).passes) {
    // Only a verified completion passes: a focused or unverified one is a failure of its own type.
    const text = [verificationText(record.verification), ...lastEvidence(record)].join('\n');
    c.problem = { kind: 'failure', type: record.verification, message: name(verificationText(record.verification)), text };
  }
  return c;
}

function plainSummary(record: RunRecord, logFile: string | undefined): string {
  const lines = [
    `task: ${record.task ?? '(not in the event log)'}`,
    `outcome: ${outcomeText(record.outcome)}${record.message ? `: ${record.message}` : ''}`,
    `verification: ${verificationText(record.verification)}`,
    ...lastEvidence(record),
    `exit code: ${record.exitCode ?? 'unknown'}`,
    `reviews: ${record.reviews.length}`,
    `cost: ${dollars(totalCost(record))} (agent ${dollars(record.agentCostUsd)}, reviews ${costText(record.reviewUsage)}, ${percent(cacheShare(record.reviewUsage))} of review input from cache)`,
  ];
  const caps = capsText(capsSpend(record));
  if (caps) lines.push(`caps: ${caps}`);
  if (record.durationMs !== undefined) lines.push(`duration: ${durationText(record.durationMs)}`);
  if (record.sessionId) lines.push(`session: ${record.sessionId}`);
  if (logFile) lines.push(`log: ${logFile}`);
  return `${lines.join('\n')}\n`;
}

/** `evidence: verified by: npm test (12 tests)`: what the last verdict rests on, when its checker said. */
function lastEvidence(record: RunRecord): string[] {
  const last = [...record.reviews].reverse().find((r) => r.result === 'complete' || r.result === 'not complete');
  const details = last ? shownVerdict(last.result === 'complete', last.evidence).details : '';
  return details ? [`evidence: ${details}`] : [];
}

/** A name on one line, bounded. */
function name(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > NAME_CHARS ? `${chars.slice(0, NAME_CHARS).join('')}…` : line;
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}
