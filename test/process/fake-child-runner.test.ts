/** The fake ChildRunner keeps the real one's contract, so unit tests built on it mean something. */
import { describe, expect, it } from 'vitest';
import { createFakeChildRunner } from '../../src/process/fake-child-runner.js';

describe('createFakeChildRunner', () => {
  it('delivers scripted stdout chunks to onStdout, or collects them, and records calls', async () => {
    const runner = createFakeChildRunner((_options, index) => ({ stdout: ['a', 'b'], stderr: 'warn', exitCode: index }));
    const chunks: string[] = [];
    const first = await runner.run({ command: 'claude', args: ['-p'], onStdout: (c) => chunks.push(c.toString()) });
    expect(chunks).toEqual(['a', 'b']);
    expect(first).toMatchObject({ exitCode: 0, stderrTail: 'warn', timedOut: false, aborted: false });
    expect(first.stdout).toBeUndefined();
    expect(await runner.run({ command: 'x', args: [] })).toMatchObject({ exitCode: 1, stdout: 'ab' });
    expect(runner.calls.map((c) => c.command)).toEqual(['claude', 'x']);
  });

  it('ends a hanging run only by timeout or abort', async () => {
    const runner = createFakeChildRunner(() => ({ hang: true }));
    expect(await runner.run({ command: 'c', args: [], timeoutMs: 10 })).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: 'SIGTERM' });
    const controller = new AbortController();
    const running = runner.run({ command: 'c', args: [], signal: controller.signal });
    controller.abort();
    expect(await running).toMatchObject({ aborted: true, timedOut: false });
  });

  it('reports a scripted spawn failure', async () => {
    const error = Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' });
    const runner = createFakeChildRunner(() => ({ spawnError: error }));
    expect((await runner.run({ command: 'claude', args: [] })).spawnError).toBe(error);
  });
});
