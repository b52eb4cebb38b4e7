import { describe, expect, it, vi } from 'vitest';
import { ABORT_GRACE_MS, runPipeline, type PipelineEntry } from '../../src/checkers/pipeline.js';
import type { CheckContext, Checker } from '../../src/checkers/types.js';

const ctx = { sessionId: 's', cwd: '/tmp', userPrompts: [], lastAssistantMessage: '', iteration: 1, maxIterations: 3 } as unknown as CheckContext;
const entry = (checker: Checker, timeoutSeconds = 5): PipelineEntry => ({ checker, timeoutSeconds });

describe('the checker pipeline', () => {
  it('stops at the first "not completed" and never runs the next checker', async () => {
    const ran: string[] = [];
    const outcome = await runPipeline(
      [
        entry({ name: 'a', check: () => (ran.push('a'), { completed: true, feedback: '' }) }),
        entry({ name: 'b', check: () => (ran.push('b'), { completed: false, feedback: 'fix b' }) }),
        entry({ name: 'c', check: () => (ran.push('c'), { completed: true, feedback: '' }) }),
      ],
      ctx,
    );
    expect(outcome).toEqual({ checker: 'b', verdict: { completed: false, feedback: 'fix b' } });
    expect(ran).toEqual(['a', 'b']);
  });

  it('names a checker that throws, answers the wrong shape, or hangs past its timeout', async () => {
    await expect(
      runPipeline(
        [
          entry({
            name: 'thrower',
            check: () => {
              throw new Error('kaput');
            },
          }),
        ],
        ctx,
      ),
    ).rejects.toThrow(/checker "thrower" threw: kaput/);
    await expect(runPipeline([entry({ name: 'shape', check: () => ({ done: 1 }) as never })], ctx)).rejects.toThrow(
      /checker "shape" returned \{"done":1\}; expected/,
    );
    let aborted = false;
    const hanging: Checker = {
      name: 'sleepy',
      check: (_c, signal) => new Promise(() => signal.addEventListener('abort', () => (aborted = true))),
    };
    await expect(runPipeline([entry(hanging, 0.2)], ctx)).rejects.toMatchObject({ code: 'CHECKER_TIMEOUT', message: expect.stringMatching(/sleepy/) });
    expect(aborted).toBe(true);
  });

  it('a timeout holds to the second: a checker that ignores its abort is given up ABORT_GRACE_MS (1 s) after it', async () => {
    vi.useFakeTimers();
    try {
      let settled: string | undefined;
      const deaf: Checker = { name: 'deaf', check: () => new Promise(() => {}) };
      void runPipeline([entry(deaf, 3)], ctx).catch((error: Error) => (settled = error.message));
      await vi.advanceTimersByTimeAsync(3000 + ABORT_GRACE_MS - 1);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe('checker "deaf" did not answer within 3s');
      expect(ABORT_GRACE_MS).toBeLessThanOrEqual(1000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('accepts allow_stop as a synonym of completed', async () => {
    const outcome = await runPipeline([entry({ name: 'x', check: () => ({ allow_stop: false, feedback: 'no' }) as never })], ctx);
    expect(outcome.verdict).toEqual({ completed: false, feedback: 'no' });
  });
});
