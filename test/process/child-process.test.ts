/**
 * The real ChildRunner against tiny real processes: exit codes, bounded output, stdin, spawn
 * failures, and the whole-tree kill on timeout and abort (docs/guarantees.md).
 */
import { describe, expect, it, vi } from 'vitest';
import { runChild } from '../../src/process/child-process.js';
import { isAlive, liveGroupMembers } from '../support/process-tree.js';

const sh = (script: string, extra: Partial<Parameters<typeof runChild>[0]> = {}) => runChild({ command: 'sh', args: ['-c', script], ...extra });

/** Waits (generously) until no member of the group is left; fails with the survivors. */
async function expectGroupGone(pgid: number, pids: number[] = []) {
  await vi.waitFor(
    () => {
      expect(liveGroupMembers(pgid)).toEqual([]);
      expect(pids.filter(isAlive)).toEqual([]);
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('runChild', () => {
  it('reports the exit code, stdout and the stderr tail', async () => {
    const result = await sh('echo out; echo err >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: 'out\n', stderrTail: 'err\n', timedOut: false, aborted: false });
    expect(result.spawnError).toBeUndefined();
  });

  it('passes arguments as an array: shell syntax in an argument stays text', async () => {
    const result = await runChild({ command: 'printf', args: ['%s|', 'a b', '$(echo no)', '; rm -rf /'] });
    expect(result.stdout).toBe('a b|$(echo no)|; rm -rf /|');
  });

  it('runs a shell string only when shell is true', async () => {
    expect((await runChild({ command: 'echo one && echo two', args: [], shell: true })).stdout).toBe('one\ntwo\n');
  });

  it('writes stdin and closes it', async () => {
    expect((await runChild({ command: 'cat', args: [], stdin: 'hello\nworld' })).stdout).toBe('hello\nworld');
    // Without stdin the child sees end-of-file at once (claude -p must not wait for input).
    expect((await runChild({ command: 'cat', args: [] })).stdout).toBe('');
  });

  it('keeps only the last 8 KB of stderr, and the stdout tail up to maxStdoutBytes', async () => {
    const result = await sh('i=0; while [ $i -lt 3000 ]; do echo "line $i" >&2; echo "out $i"; i=$((i+1)); done', { maxStdoutBytes: 100 });
    expect(result.stderrTail.length).toBeLessThanOrEqual(8192);
    expect(result.stderrTail.endsWith('line 2999\n')).toBe(true);
    expect(result.stderrTail.length).toBeGreaterThan(8000);
    expect(result.stdout!.length).toBeLessThanOrEqual(100);
    expect(result.stdout!.endsWith('out 2999\n')).toBe(true);
    expect(result.stdoutTruncated).toBe(true);
  });

  it('streams stdout to onStdout instead of keeping it', async () => {
    const chunks: Buffer[] = [];
    const result = await sh('echo a; echo b', { onStdout: (c) => chunks.push(c) });
    expect(Buffer.concat(chunks).toString()).toBe('a\nb\n');
    expect(result.stdout).toBeUndefined();
  });

  it('reports a missing command as spawnError ENOENT', async () => {
    const result = await runChild({ command: '/nonexistent/claude', args: ['-p'] });
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toMatchObject({ code: 'ENOENT' });
  });

  it('reports a missing working directory as CWD_MISSING, not as a missing command', async () => {
    const result = await runChild({ command: 'sh', args: ['-c', 'true'], cwd: '/nonexistent/project' });
    expect(result.spawnError).toMatchObject({ code: 'CWD_MISSING', message: expect.stringContaining('/nonexistent/project does not exist') });
  });

  it('kills the whole process tree at the timeout', async () => {
    // The background sleep is a grandchild: killing only sh would leave it running.
    const result = await sh('sleep 300 & echo $!; sleep 300', { timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGTERM');
    const grandchild = Number(result.stdout!.trim());
    expect(grandchild).toBeGreaterThan(0);
    await expectGroupGone(result.pid!, [grandchild]);
  });

  it('kills with SIGKILL after the grace period a tree that ignores SIGTERM', async () => {
    const result = await sh('trap "" TERM; sleep 300 & echo $!; sleep 300', { timeoutMs: 300, killGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    await expectGroupGone(result.pid!, [Number(result.stdout!.trim())]);
  });

  it('kills the tree when the signal aborts', async () => {
    const controller = new AbortController();
    const result = await sh('sleep 300 & echo $!; sleep 300', { signal: controller.signal, onStdout: () => controller.abort() });
    expect(result).toMatchObject({ aborted: true, timedOut: false });
    await expectGroupGone(result.pid!);
  });

  it('halt SIGKILLs the whole tree at once, with no grace: a child that ignores SIGTERM takes no further step', async () => {
    const controller = new AbortController();
    const result = await sh('trap "" TERM; sleep 300 & echo $!; sleep 300', {
      halt: controller.signal,
      killGraceMs: 600_000,
      onStdout: () => controller.abort(),
    });
    expect(result).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGKILL' });
    await expectGroupGone(result.pid!);
  });

  it('does not start at all when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await sh('echo should-not-run', { signal: controller.signal })).toMatchObject({ aborted: true, stdout: '' });
  });

  it('cleans up what a child left running when it exits, so the run still ends', async () => {
    // The orphan holds stdout open: without the cleanup `close` would wait 300 s.
    const result = await sh('sleep 300 & echo $!');
    expect(result.exitCode).toBe(0);
    await expectGroupGone(result.pid!, [Number(result.stdout!.trim())]);
  });

  it('an onSpawn that throws is said once on stderr; the child runs on, supervised', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const onSpawn = () => {
        throw new Error('no room in the lock');
      };
      expect((await sh('exit 4', { onSpawn })).exitCode).toBe(4);
      expect((await sh('exit 5', { onSpawn })).exitCode).toBe(5);
      expect(stderr.mock.calls.map(([line]) => String(line))).toEqual([
        'ccc: WARN: after starting sh, recording its process failed (no room in the lock); it runs on, but a crash of ccc may leave it running.\n',
      ]);
    } finally {
      stderr.mockRestore();
    }
  });
});
