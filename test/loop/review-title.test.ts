/**
 * The terminal title over a wait on the model's limit (src/loop/review-status.ts), on a fake clock:
 * the wait's title is held against claude's retitling while the wait lasts, and never outlives it,
 * whether the session resumed or ccc gave up waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { event } from '../../src/loop/events.js';
import { reviewTitleUpdater } from '../../src/loop/review-status.js';

const titles = (written: string[]) => written.map((s) => s.replace(/^\x1b\]0;/, '').replace(/\x07$/, ''));

describe('the title over a wait on the model limit', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function waiting() {
    const written: string[] = [];
    const title = reviewTitleUpdater((s) => written.push(s));
    title.onEvent(event({ kind: 'waiting', who: 'agent', message: 'rate limited', until: new Date(Date.now() + 600_000).toISOString() }));
    vi.advanceTimersByTime(3_000);
    expect(titles(written).every((t) => t.startsWith("ccc: waiting on the model's limit until"))).toBe(true);
    expect(written.length).toBeGreaterThan(2); // held against claude's retitling
    return { written, title };
  }

  it('resumed: said once, then the waiting title is never written again', () => {
    const { written, title } = waiting();
    title.onEvent(event({ kind: 'wait-over', who: 'agent', outcome: 'resumed', waited_ms: 600_000 }));
    const at = written.length;
    vi.advanceTimersByTime(60_000);
    expect(titles(written.slice(at - 1))).toEqual(["ccc: the model's limit is over: the agent works again"]);
    title.stop();
  });

  it('gave up: the waiting title is replaced by one that says so, and not written again', () => {
    const { written, title } = waiting();
    title.onEvent(event({ kind: 'wait-over', who: 'reviewer', outcome: 'gave-up', waited_ms: 180 * 60_000 }));
    const at = written.length;
    vi.advanceTimersByTime(60_000);
    const after = titles(written.slice(at - 1));
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((t) => t === "ccc: gave up waiting on the model's limit after 180 min")).toBe(true);
    title.stop();
  });
});

describe("the title with claude's own titles off", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const prompt = (text: string, at: Date) => ({ type: 'user', message: { role: 'user', content: text }, timestamp: at.toISOString() });

  it('names the session from the start, holds a verdict without writing it again, and says the agent works at the next prompt only', () => {
    const written: string[] = [];
    const since = Date.now();
    const title = reviewTitleUpdater((s) => written.push(s), { claudeTitles: false, since });
    expect(titles(written)).toEqual(['ccc: waiting for a prompt']);
    // A resumed transcript's prompts are older than the session: not new work.
    title.onFrame(prompt('the old task', new Date(since - 60_000)));
    expect(titles(written)).toEqual(['ccc: waiting for a prompt']);
    title.onFrame(prompt('build it', new Date(since + 1000)));
    title.onEvent(event({ kind: 'iteration', n: 1, max: 3 }));
    title.onEvent(event({ kind: 'checker', checker: 'claude', state: 'start' }));
    // A prompt while a review runs (typed ahead) does not hide the review.
    title.onFrame(prompt('typed ahead', new Date(since + 2000)));
    title.onEvent(event({ kind: 'verdict', checker: 'claude', completed: true, feedback: 'ok', iteration: 1, evidence: [] }));
    const atVerdict = written.length;
    vi.advanceTimersByTime(60_000);
    expect(written.length).toBe(atVerdict); // nothing to hold it against
    // Hook feedback and slash commands are not the user's prompts.
    title.onFrame({
      type: 'user',
      isMeta: true,
      message: { role: 'user', content: 'Stop hook feedback:\nadd the test' },
      timestamp: new Date(since + 3000).toISOString(),
    });
    title.onFrame(prompt('<command-name>/help</command-name>', new Date(since + 3000)));
    expect(titles(written).at(-1)).toBe('ccc: ⚠ review 1 complete (unverified)');
    title.onFrame(prompt('and now the docs', new Date(since + 4000)));
    expect(titles(written).slice(1)).toEqual([
      'ccc: agent working',
      'ccc: reviewing 1/3 (claude) · 0s',
      'ccc: ⚠ review 1 complete (unverified)',
      'ccc: agent working',
    ]);
    title.stop();
  });
});
