/** When a run tells a person, mode by mode: the notify reporter's rules over event sequences. */
import { describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../src/loop/events.js';
import { notificationRules, type Notification, type RunMode } from '../../../src/reporters/notify/notification.js';

const at = '2026-01-01T10:00:00.000Z';
const verdict = (completed: boolean, extra: Partial<Extract<SupervisorEvent, { kind: 'verdict' }>> = {}): SupervisorEvent => ({
  kind: 'verdict',
  checker: 'claude',
  completed,
  feedback: completed ? 'done' : 'the parser is missing',
  iteration: 1,
  evidence: completed ? [{ command: 'npm test', exit_code: 0, scope: 'whole', tests: 4 }] : [{ command: 'npm test', exit_code: 1 }],
  spent_usd: 0.25,
  at,
  ...extra,
});
const end = (code: number | null): SupervisorEvent => ({ kind: 'end', exit_code: code, reviews: 1, at });
const stopped = (reason: Extract<SupervisorEvent, { kind: 'stopped' }>['reason'], message = `${reason} message`): SupervisorEvent => ({
  kind: 'stopped',
  reason,
  message,
  at,
});
const windDown = (reason: 'limit' | 'cost-cap'): SupervisorEvent => ({ kind: 'wind-down', reason, message: `${reason} reached`, at });
const waiting = (who: 'agent' | 'reviewer' = 'agent'): SupervisorEvent => ({
  kind: 'waiting',
  who,
  message: 'rate limited',
  until: '2026-01-01T10:01:00.000Z',
  at,
});

function told(mode: RunMode, events: SupervisorEvent[], close?: { exitCode?: number }, windDownOn = true): Notification[] {
  const rules = notificationRules({ mode, cwd: '/work/app', windDown: windDownOn, limitWaitMinutes: 300, now: () => new Date(at) });
  const out = events.map((e) => rules.onEvent(e));
  if (close) out.push(rules.onClose(close));
  return out.filter((n): n is Notification => n !== undefined);
}

const brief = (ns: Notification[]) => ns.map((n) => [n.event, n.outcome ?? n.reason ?? '']);

describe('what a run tells, and when', () => {
  it('headless: the end once, with the word of the last verdict and the exit code', () => {
    const ns = told('headless', [{ kind: 'start', task: 'build it', at }, verdict(false), verdict(true), end(0)], { exitCode: 0 });
    expect(brief(ns)).toEqual([['end', 'verified']]);
    expect(ns[0]).toMatchObject({
      title: 'ccc: done, verified (app)',
      exit_code: 0,
      task: 'build it',
      evidence: 'verified by: npm test (4 tests)',
      spent_usd: 0.25,
    });
  });

  it('reviewers that disagree: the notification says who said what (lines and fields), at the end, stuck and a cap', () => {
    const opinions = [
      { checker: 'claude', completed: true, feedback: 'CL-7 looks done', verification: 'unverified' as const, details: 'unverified' },
      { checker: 'codex', completed: false, feedback: 'CX-9 add fails', verification: 'failed' as const, details: 'failed: npm test (exit 1)' },
    ];
    const disagree = verdict(false, {
      checker: 'codex',
      feedback: 'The reviewers disagree: claude found the work complete, codex did not (all).\n- claude: …\n- codex: …',
      opinions,
    });
    for (const ending of [[stopped('limit'), end(3)], [stopped('no-progress'), end(3)], [end(1)]]) {
      const [n] = told('headless', [disagree, ...ending], { exitCode: 3 });
      expect(n!.lines).toEqual(
        expect.arrayContaining([
          'Last feedback: The reviewers disagree: claude found the work complete, codex did not (all).',
          'claude: complete (unverified): CL-7 looks done',
          'codex: not complete (failed: npm test (exit 1)): CX-9 add fails',
        ]),
      );
      expect(n).toMatchObject({
        reviewer: 'codex',
        opinions: [
          { checker: 'claude', completed: true, verification: 'unverified' },
          { checker: 'codex', completed: false, verification: 'failed' },
        ],
      });
    }
    // Complete under `one` with a reviewer that said no: done, and the no is told.
    const oneSaidNo = verdict(true, {
      checker: 'codex',
      feedback: 'The reviewers disagree: codex found the work complete, claude did not (one).',
      opinions: [...opinions].reverse().map((o) => ({ ...o, completed: !o.completed })),
    });
    const [done] = told('headless', [oneSaidNo, end(0)], { exitCode: 0 });
    expect(done).toMatchObject({ event: 'end', outcome: 'verified', reviewer: 'codex' });
    expect(done!.lines).toContain('The reviewers disagree: codex found the work complete, claude did not (one).');
    expect(done!.lines.filter((l) => /^(claude|codex): /.test(l))).toHaveLength(2);
    // One reviewer, or all agreeing: the reviewer is named, no opinions.
    const [alone] = told('headless', [verdict(true, { checker: 'codex' }), end(0)], { exitCode: 0 });
    expect(alone).toMatchObject({ reviewer: 'codex' });
    expect(alone).not.toHaveProperty('opinions');
  });

  it('each verdict word has its own title; an outcome from an older log is derived from the evidence', () => {
    const word = (v: SupervisorEvent) => told('interactive', [v])[0]!;
    expect(word(verdict(true, { evidence: [] }))).toMatchObject({ outcome: 'unverified', title: expect.stringContaining('unverified') });
    expect(word(verdict(true, { verification: 'focused' as never }))).toMatchObject({ outcome: 'focused', title: expect.stringContaining('focused run only') });
    expect(word(verdict(true))).toMatchObject({ outcome: 'verified' });
  });

  it('headless: stuck (no progress, denied tools) is the ending, nothing more at the end', () => {
    expect(brief(told('headless', [verdict(false), stopped('no-progress'), end(3)], { exitCode: 3 }))).toEqual([['stuck', 'no-progress']]);
    expect(brief(told('headless', [verdict(false), stopped('permission-denied'), end(2)]))).toEqual([['stuck', 'permission-denied']]);
  });

  it('a cap is told at its wind-down, not again when the last turn ends', () => {
    expect(brief(told('headless', [verdict(false), windDown('limit'), stopped('limit'), end(3)]))).toEqual([['cap', 'limit']]);
    expect(brief(told('interactive', [verdict(false), windDown('cost-cap'), stopped('cost-cap')]))).toEqual([['cap', 'cost-cap']]);
    // Without a wind-down: at the stop.
    expect(brief(told('headless', [verdict(false), stopped('limit'), end(3)], undefined, false))).toEqual([['cap', 'limit']]);
  });

  it('the standalone hook: the stop that ends a wind-down turn (a later process, no verdict) was told by the hook before it', () => {
    expect(brief(told('hook', [stopped('cost-cap'), end(0)], { exitCode: 0 }))).toEqual([]);
    expect(brief(told('hook', [stopped('limit'), end(0)], { exitCode: 0 }, false))).toEqual([['cap', 'limit']]);
    expect(brief(told('hook', [verdict(true), end(0)], { exitCode: 0 }))).toEqual([['end', 'verified']]);
    expect(brief(told('hook', [verdict(false), end(0)], { exitCode: 0 }))).toEqual([]); // a block: the agent goes on
  });

  it('interactive: the end at the confirmed completion; the user quitting says nothing, claude dying does', () => {
    expect(brief(told('interactive', [verdict(true), end(0)], {}))).toEqual([['end', 'verified']]);
    expect(brief(told('interactive', [verdict(false), end(0)], {}))).toEqual([]);
    expect(brief(told('interactive', [verdict(false), end(137)], {}))).toEqual([['end', 'failed']]);
    // A second task in the same session is told again.
    expect(brief(told('interactive', [verdict(true), verdict(false), verdict(true)]))).toEqual([
      ['end', 'verified'],
      ['end', 'verified'],
    ]);
  });

  it('a failing review or a signal ends the run as failed, with why', () => {
    const [failed] = told('headless', [verdict(false), stopped('checker-failed', 'the reviewer timed out'), end(4)]);
    expect(failed).toMatchObject({ event: 'end', outcome: 'failed', exit_code: 4, reason: 'checker-failed' });
    expect(failed!.lines).toContain('Why: the review failed: the reviewer timed out');
    expect(brief(told('headless', [stopped('interrupted', 'SIGTERM received'), end(143)]))).toEqual([['end', 'failed']]);
    expect(brief(told('interactive', [verdict(false), stopped('checker-failed')]))).toEqual([['end', 'failed']]);
  });

  it('the agent failing (no verdict) is told at the end with its error; an error thrown past the end at the close', () => {
    const [n] = told('headless', [{ kind: 'error', message: 'claude exited with code 1', at }, end(1)]);
    expect(n).toMatchObject({ event: 'end', outcome: 'failed', exit_code: 1 });
    expect(n!.lines).toContain('Why: the run ended: claude exited with code 1');
    expect(brief(told('headless', [verdict(false)], {}))).toEqual([['end', 'failed']]);
  });

  it('an exit 0 without a confirmed completion is not called done', () => {
    const [n] = told('headless', [end(0)]);
    expect(n).toMatchObject({ outcome: 'failed', title: 'ccc: failed (app)' });
    expect(n!.lines).toContain('Why: the run ended without a confirmed completion');
  });

  it('kanban: a card confirmed is not the end; the board ending is', () => {
    expect(brief(told('kanban', [verdict(true), verdict(true)], { exitCode: 0 }))).toEqual([['end', 'verified']]);
    expect(brief(told('kanban', [verdict(false), stopped('no-progress')], { exitCode: 3 }))).toEqual([['stuck', 'no-progress']]);
  });

  it('a wait is told once per series, with until when; again after a verdict got through', () => {
    const ns = told('headless', [waiting(), waiting(), waiting('reviewer'), verdict(false), waiting()]);
    expect(brief(ns)).toEqual([
      ['waiting', ''],
      ['waiting', ''],
      ['waiting', ''],
    ]);
    expect(ns[0]).toMatchObject({ until: '2026-01-01T10:01:00.000Z', priority: 'low' });
    expect(ns[0]!.lines.join('\n')).toMatch(/Next try: \d\d:\d\d \(2026-01-01T10:01:00.000Z\)/);
  });
});
