/**
 * The JUnit report of a run validates against the Jenkins and Ant JUnit schemas, whatever text
 * the task and the feedback hold, and says per review what the checker found.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { junitReport } from '../../../src/reporters/ci/junit-report.js';
import { runRecord } from '../../../src/reporters/ci/run-record.js';
import { junitSchemaErrors } from '../../support/junit-schemas.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

const ENDS = ['verified', 'unverified', 'limit', 'checker-failed', 'unfinished'] as const;

function lines(task: string, feedback: string, end: (typeof ENDS)[number]) {
  const out: unknown[] = [
    { kind: 'start', task, at: at(0) },
    { kind: 'iteration', n: 1, max: 2, at: at(1) },
    { kind: 'checker', checker: 'claude', state: 'start', at: at(1) },
    { kind: 'verdict', checker: 'claude', completed: false, feedback, iteration: 1, at: at(3) },
    { kind: 'iteration', n: 2, max: 2, at: at(4) },
  ];
  if (end === 'verified' || end === 'unverified')
    out.push(
      {
        kind: 'verdict',
        checker: 'claude',
        completed: true,
        feedback: 'ok',
        iteration: 2,
        evidence: [end === 'verified' ? { command: 'npm test', exit_code: 0, scope: 'whole' } : { command: 'npm test', exit_code: 1 }],
        at: at(5),
      },
      { kind: 'end', exit_code: 0, at: at(6) },
    );
  if (end === 'limit')
    out.push(
      { kind: 'verdict', checker: 'claude', completed: false, feedback, iteration: 2, at: at(5) },
      { kind: 'stopped', reason: 'limit', message: 'the iteration limit (2) was reached', at: at(6) },
      { kind: 'end', exit_code: 3, at: at(6) },
    );
  if (end === 'checker-failed')
    out.push(
      { kind: 'error', message: feedback, at: at(5) },
      { kind: 'stopped', reason: 'checker-failed', message: feedback, at: at(5) },
      { kind: 'end', exit_code: 4, at: at(6) },
    );
  return out;
}

describe('junitReport', () => {
  it.each(ENDS)('a run that ended %s is a valid report with one case per review and the outcome', async (end) => {
    const xml = junitReport(runRecord(lines('write parse()', 'add the tests\nfor parse()', end)), { hostname: 'runner-1', logFile: '/tmp/x.log' });
    expect(await junitSchemaErrors(xml)).toEqual({ jenkins: [], ant: [] });
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('<failure type="not-complete" message="add the tests">add the tests\nfor parse()</failure>');
    // A verified completion is the one plain pass; an unverified one is a failure of its own type (see junit-report.ts).
    if (end === 'verified') expect(xml).toContain('<testcase name="outcome" classname="ccc.run" time="6.000"/>');
    else expect(xml).toMatch(/<testcase name="outcome" classname="ccc.run" time="[\d.]+">\n {6}<failure type="([a-z-]+)"/);
    if (end === 'unverified') {
      expect(xml).toContain('<failure type="unverified" message="unverified: the checker found the work complete, but no verification command ran green');
      expect(xml).toContain('failures="2" errors="0"');
    }
    expect(xml).toContain(`<property name="verification" value="${end === 'limit' || end === 'checker-failed' || end === 'unfinished' ? 'failed' : end}"/>`);
    const suite = xml.match(/<testsuite [^>]*>/)![0];
    expect(suite).toContain('name="write parse()"');
    expect(suite).toContain('timestamp="2026-01-01T00:00:00"');
  });

  it('any task and feedback text keeps the report valid (control characters, surrogates, markup, CR)', async () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(']]>', '<!--', '&#0;', '\r\n\r', '\u0000\u0001\uFFFE', '\uD800', '   '));
    const samples = fc.sample(fc.tuple(text, text, fc.constantFrom(...ENDS)), { numRuns: 300 });
    const reports = samples.map(([task, feedback, end]) => junitReport(runRecord(lines(task, feedback, end)), { hostname: '' }));
    expect(await junitSchemaErrors(reports)).toEqual({ jenkins: [], ant: [] });
  });
});
