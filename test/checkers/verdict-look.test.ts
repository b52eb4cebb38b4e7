/**
 * How a verdict is drawn, on every surface that shows one: only a verified completion has the sign
 * of a success; focused, unverified and failed each their own, with what the verdict rests on in
 * verification.ts's words. The surfaces: the progress line (headless, CI logs), the terminal's
 * title, the line the Stop hook shows in claude's transcript, the observer's terminal client,
 * `ccc sessions`, the GitHub summary, annotation and outputs, and JUnit.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/checkers/evidence.js';
import { lookOf, type DrawnOutcome } from '../../src/checkers/verdict-look.js';
import { shownVerdict } from '../../src/checkers/verdict-text.js';
import type { Verification } from '../../src/checkers/verification.js';
import { formatSession } from '../../src/cli/commands/sessions.js';
import { event } from '../../src/loop/events.js';
import { reviewTitleUpdater } from '../../src/loop/review-status.js';
import { eventText } from '../../src/observer/event-text.js';
import { githubReport } from '../../src/reporters/ci/github-report.js';
import { junitReport } from '../../src/reporters/ci/junit-report.js';
import { runRecord, type RunRecord } from '../../src/reporters/ci/run-record.js';
import { runTable, runTableMarkdown } from '../../src/reporters/ci/run-table.js';
import { hookOutput } from '../../src/loop/hook-output.js';
import { renderEvent } from '../../src/reporters/progress.js';

const passing: Evidence[] = [{ command: 'npm test', exit_code: 0, scope: 'whole', tests: 12 }];
const failing: Evidence[] = [{ command: 'npm test', exit_code: 1 }];
const nothingRan: Evidence[] = [];

/** The three outcomes verificationOf gives today, each as a verdict with its evidence. */
const VERDICTS = [
  { outcome: 'verified', completed: true, evidence: passing, sign: '✓', words: 'verified by: npm test (12 tests)' },
  { outcome: 'unverified', completed: true, evidence: nothingRan, sign: '⚠', words: 'unverified' },
  { outcome: 'failed', completed: false, evidence: failing, sign: '✗', words: 'failed: npm test (exit 1)' },
] as const;

describe('the look of each outcome', () => {
  it('only verified passes and is drawn as a success; focused is drawn apart from both verified and unverified', () => {
    const looks = (['verified', 'focused', 'unverified', 'failed'] as DrawnOutcome[]).map((o) => lookOf(o));
    expect(looks.map((l) => [l.drawnAs, l.sign, l.mark, l.annotation, l.passes])).toEqual([
      ['verified', '✓', '✅', 'notice', true],
      ['focused', '◐', '🟡', 'warning', false],
      ['unverified', '⚠', '⚠️', 'warning', false],
      ['failed', '✗', '❌', 'error', false],
    ]);
    expect(new Set(looks.map((l) => l.sign)).size).toBe(4);
    expect(new Set(looks.map((l) => l.mark)).size).toBe(4);
    // Resting on tests the agent weakened: a warning like unverified, never a pass, its words say which.
    expect(lookOf('tests-changed')).toMatchObject({ drawnAs: 'tests-changed', sign: '⚠', mark: '⚠️', annotation: 'warning', passes: false });
  });

  it('an outcome it does not know (a newer log, a new kind of evidence) is drawn as unverified, never as a success', () => {
    for (const word of ['verified by tests the agent changed', 'bogus', '', undefined, '__proto__', 'toString']) {
      expect(lookOf(word)).toMatchObject({ drawnAs: 'unverified', sign: '⚠', passes: false });
      expect(lookOf(word).meaning).toBeUndefined(); // the reports name it by its own word
    }
  });

  it.each(VERDICTS)('$outcome: the sign and the words come from the verdict and its evidence', ({ outcome, completed, evidence, sign, words }) => {
    expect(shownVerdict(completed, evidence)).toMatchObject({ drawnAs: outcome, sign, details: words });
  });
});

describe('every text surface draws the outcome with its sign and says what it rests on', () => {
  const verdictEvent = (v: (typeof VERDICTS)[number]) =>
    event({ kind: 'verdict', checker: 'claude', completed: v.completed, feedback: 'the feedback', iteration: 2, evidence: [...v.evidence] });

  it.each(VERDICTS)('$outcome: the progress line', (v) => {
    expect(renderEvent(verdictEvent(v)).split('\n')[0]).toBe(
      v.completed ? `ccc: ${v.sign} complete (claude, ${v.words})` : `ccc: ${v.sign} not complete (claude, ${v.words}): the feedback`,
    );
  });

  it.each(VERDICTS)('$outcome: the terminal title', (v) => {
    const written: string[] = [];
    const title = reviewTitleUpdater((s) => written.push(s), { claudeTitles: false });
    title.onEvent(verdictEvent(v));
    title.stop();
    expect(written.at(-1)).toBe(`\x1b]0;ccc: ${v.sign} review 2${v.completed ? ' complete' : ': feedback sent'} (${v.words})\x07`);
  });

  it.each(VERDICTS)("$outcome: the Stop hook's line in claude's transcript", (v) => {
    const verdict = { completed: v.completed, feedback: 'the feedback', evidence: [...v.evidence] };
    const decision = v.completed
      ? ({ action: 'allow', reason: 'completed', message: 'done', iteration: 2, verdict, checker: 'claude' } as const)
      : ({ action: 'block', feedback: 'the feedback', iteration: 2, verdict, checker: 'claude' } as const);
    const output = JSON.parse(hookOutput(decision, { showVerdict: true, shown: shownVerdict(v.completed, v.evidence) })) as { systemMessage: string };
    expect(output.systemMessage).toBe(
      v.completed
        ? `ccc: ${v.sign} review 2 (claude): complete, ${v.words}`
        : `ccc: ${v.sign} review 2 (claude): not complete, feedback sent to the agent (${v.words})`,
    );
  });

  it("focused, when the evidence comes to it: the Stop hook's line has its own sign", () => {
    const decision = { action: 'allow', reason: 'completed', message: 'done', iteration: 1, checker: 'claude' } as const;
    const shown = { sign: lookOf('focused').sign, details: 'focused: pytest -k parse (3 of 4 tests)' };
    expect(JSON.parse(hookOutput(decision, { showVerdict: true, shown }))).toEqual({
      systemMessage: 'ccc: ◐ review 1 (claude): complete, focused: pytest -k parse (3 of 4 tests)',
    });
  });

  it("the Stop hook's line is inert: a command the reviewer ran cannot put an escape sequence on the user's screen", () => {
    const evidence: Evidence[] = [{ command: 'npm test \x1b]0;pwned\x07\x1b[8m', exit_code: 0, scope: 'whole', tests: 1 }];
    const decision = { action: 'allow', reason: 'completed', message: 'done', iteration: 1, checker: 'claude' } as const;
    const { systemMessage } = JSON.parse(hookOutput(decision, { showVerdict: true, shown: shownVerdict(true, evidence) })) as { systemMessage: string };
    expect(systemMessage).toMatch(/^ccc: ✓ review 1 \(claude\): complete, verified by: npm test/);
    expect(systemMessage).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it.each(VERDICTS)("$outcome: the observer's terminal client and `ccc sessions`", (v) => {
    expect(eventText(verdictEvent(v))).toBe(
      `verdict of claude (iteration 2): ${v.sign} ${v.completed ? 'completed' : 'not completed'} (${v.words}): the feedback`,
    );
    const lastVerdict = { checker: 'claude', completed: v.completed, feedback: 'the feedback', at: 'now', evidence: [...v.evidence] };
    expect(formatSession({ pid: 1, sessionId: 's', cwd: '/p', command: [], startedAt: 'then', lastVerdict })).toContain(
      `  verdict   ${v.sign} ${v.completed ? 'complete' : 'not done'} (claude, ${v.words}, now): the feedback`,
    );
  });
});

describe('the CI reports draw a run by its outcome', () => {
  /** A headless run's event lines that ended on `v`'s verdict (or at the iteration limit after it). */
  const run = (v: (typeof VERDICTS)[number]): RunRecord =>
    runRecord([
      { kind: 'start', task: 'fix it', at: '2026-01-01T00:00:00Z' },
      { kind: 'iteration', n: 1, max: 1, at: '2026-01-01T00:00:01Z' },
      { kind: 'verdict', checker: 'claude', completed: v.completed, feedback: 'the feedback', iteration: 1, evidence: v.evidence, at: '2026-01-01T00:00:02Z' },
      ...(v.completed ? [] : [{ kind: 'stopped', reason: 'limit', message: 'the iteration limit (1) was reached', at: '2026-01-01T00:00:03Z' }]),
      { kind: 'end', exit_code: v.completed ? 0 : 3, at: '2026-01-01T00:00:03Z' },
    ]);

  it.each(VERDICTS)('$outcome: the summary heading and row, the annotation, the outputs and the JUnit outcome', (v) => {
    const record = run(v);
    const report = githubReport(record, {});
    expect(report.summary).toContain(`### ${lookOf(v.outcome).mark} ccc: `);
    const row = report.summary.split('\n').find((line) => line.startsWith('| 1 |'))!;
    // The cells as a reader sees them (Markdown's escapes taken off).
    expect(row.replace(/\\(.)/g, '$1').split(' | ').slice(1, 4)).toEqual(['claude', `${v.sign} ${v.completed ? '' : 'not '}complete`, v.words]);
    expect(report.annotation.startsWith(`::${lookOf(v.outcome).annotation} `)).toBe(true);
    if (v.completed) expect(report.annotation).toContain(v.words);
    expect(report.outputs).toContain(`evidence<<`);
    expect(report.outputs).toContain(`\n${v.words}\n`);
    const xml = junitReport(record, { hostname: 'h' });
    const outcomeCase = xml.slice(xml.indexOf('<testcase name="outcome"'));
    if (v.outcome === 'verified') expect(outcomeCase).toMatch(/^<testcase name="outcome"[^>]*\/>/);
    else expect(outcomeCase).toMatch(new RegExp(`<failure type="${v.completed ? v.outcome : 'limit'}"`));
    expect(xml).toContain(`evidence: ${v.words}`);
  });

  it("an outcome the table does not know (a newer ccc's): named by its own word everywhere, drawn as unverified, never as a pass", () => {
    const record: RunRecord = { ...run(VERDICTS[0]), verification: 'attested' as Verification };
    const report = githubReport(record, {});
    expect(report.summary).toContain('### ⚠️ ccc: completed, attested');
    expect(report.summary).toContain('**Verification:** attested: complete, not verified');
    expect(report.annotation).toMatch(/^::warning title=ccc%3A completed%2C attested::The checker found the work complete, but the completion is attested; /);
    expect(report.outputs).toContain('\nfalse\n'); // verified
    expect(junitReport(record, { hostname: 'h' })).toContain('<failure type="attested"');
    const table = runTable([
      { file: 'a.jsonl', record },
      { file: 'b.jsonl', record: run(VERDICTS[0]) },
    ]);
    expect(table.totals).toMatchObject({ verified: 1, focused: 0, 'tests-changed': 0, unverified: 0, failed: 0, other_verifications: { attested: 1 } });
    expect(runTableMarkdown(table)).toContain('| 1 verified, 0 focused, 0 tests-changed, 0 unverified, 0 failed, 1 attested |');
    expect(runTableMarkdown(table)).toContain('| ⚠️ attested |');
  });

  it('a focused completion: a warning annotation that names it, a failure of type focused in JUnit, its own mark', () => {
    const record: RunRecord = { ...run(VERDICTS[0]), verification: 'focused' };
    const report = githubReport(record, {});
    expect(report.summary).toContain('### 🟡 ccc: completed, focused');
    expect(report.annotation).toMatch(
      /^::warning title=ccc%3A completed%2C focused::The checker found the work complete, but the completion is focused: tests ran green/,
    );
    expect(junitReport(record, { hostname: 'h' })).toContain('<failure type="focused"');
  });
});
