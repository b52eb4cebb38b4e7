/**
 * A ChildRunner for unit tests: scripted output and exit, no process. It keeps the real
 * runner's contract: stdout goes to `onStdout` (in the given chunks) or into `stdout`, a run that
 * hangs ends only by abort or timeout, and every call is recorded for assertions.
 */
import type { ChildRunner, RunOptions } from './child-process.js';

export interface FakeRun {
  /** Stdout, as one string or as the exact chunks to deliver. */
  stdout?: string | Array<string | Buffer>;
  stderr?: string;
  exitCode?: number | null;
  signal?: string | null;
  /** Never exits by itself: ends with `aborted` or `timedOut` (and signal SIGTERM). */
  hang?: boolean;
  /** Fails to start, like a missing command. */
  spawnError?: Error;
}

export interface FakeChildRunner extends ChildRunner {
  /** The options of every run, in order. */
  readonly calls: RunOptions[];
}

export function createFakeChildRunner(script: (options: RunOptions, index: number) => FakeRun): FakeChildRunner {
  const calls: RunOptions[] = [];
  return {
    calls,
    async run(options) {
      const fake = script(options, calls.length);
      calls.push(options);
      const started = Date.now();
      const base = { exitCode: null, signal: null, stderrTail: '', timedOut: false, aborted: false };
      if (options.signal?.aborted) return { ...base, aborted: true, durationMs: 0 };
      if (fake.spawnError) return { ...base, spawnError: fake.spawnError, durationMs: 0 };
      const chunks = typeof fake.stdout === 'string' ? [fake.stdout] : (fake.stdout ?? []);
      const collected: Buffer[] = [];
      for (const chunk of chunks) {
        // A turn of the event loop between chunks, like a real pipe.
        await new Promise((resolve) => setImmediate(resolve));
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        if (options.onStdout) options.onStdout(bytes);
        else collected.push(bytes);
      }
      const ending = fake.hang ? await waitForKill(options) : { timedOut: false, aborted: false };
      const stdout = options.onStdout ? {} : { stdout: Buffer.concat(collected).toString('utf8') };
      return {
        ...base,
        ...ending,
        exitCode: fake.hang ? null : (fake.exitCode ?? 0),
        signal: fake.hang ? 'SIGTERM' : (fake.signal ?? null),
        ...stdout,
        stderrTail: fake.stderr ?? '',
        durationMs: Date.now() - started,
      };
    },
  };
}

function waitForKill(options: RunOptions): Promise<{ timedOut: boolean; aborted: boolean }> {
  return new Promise((resolve) => {
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => finish({ timedOut: true, aborted: false }), options.timeoutMs);
    const onAbort = () => finish({ timedOut: false, aborted: true });
    const finish = (ending: { timedOut: boolean; aborted: boolean }) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(ending);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
