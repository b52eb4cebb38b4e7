import { describe, expect, it } from 'vitest';
import { guardProbe, guardWatch } from '../../../src/checkers/reviewer/guard-probe.js';

describe('the guard probe', () => {
  const nonce = guardProbe().nonce;
  const answer = (stderr: string) => ({ type: 'system', subtype: 'hook_response', hook_event: 'SessionStart', stderr, output: stderr });
  const init = { type: 'system', subtype: 'init' };

  it("is active once the probe's SessionStart answer carries the nonce, whatever comes after", () => {
    const watch = guardWatch(nonce);
    expect(watch.onFrame({ type: 'system', subtype: 'hook_started', hook_event: 'SessionStart' })).toBe('waiting');
    expect(watch.onFrame(answer(`${nonce}\n`))).toBe('active');
    expect(watch.onFrame(init)).toBe('active');
  });

  it('is missing when init, an assistant or a result frame comes first, or only another SessionStart hook answered', () => {
    for (const first of [init, { type: 'assistant' }, { type: 'result' }]) expect(guardWatch(nonce).onFrame(first)).toBe('missing');
    const watch = guardWatch(nonce);
    expect(watch.onFrame(answer('ccc-reviewer-guard-someone-else'))).toBe('waiting');
    expect(watch.onFrame(init)).toBe('missing');
    expect(watch.onFrame(answer(nonce))).toBe('missing');
  });

  it('uses a new nonce per launch', () => {
    expect(guardProbe().nonce).not.toBe(guardProbe().nonce);
  });
});
