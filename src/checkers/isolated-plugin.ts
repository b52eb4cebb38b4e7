/**
 * A checker plugin in a worker thread of its own (plugin-worker.ts), behind a Checker with the
 * same name and hooks: a plugin cannot end ccc (`process.exit` ends its thread: a checker failure
 * naming it), block it (a loop that never yields runs on another thread; past its timeout the
 * thread is stopped within ABORT_GRACE_MS and a late verdict is ignored), or write over the
 * terminal or `--json` (its stdout and stderr go to the session log). A thread that ended starts
 * again at the next check, with `onSessionStart` replayed. Its heap is bounded (`maxMemoryMb`): a
 * plugin that allocates without end ends its own thread, a checker failure naming the limit, while
 * ccc's memory stays what it was. The built-in checkers stay in ccc's thread.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CccError, type ErrorCode, errorText } from '../errors.js';
import type { Frame } from '../frames/frame.js';
import { ABORT_GRACE_MS } from './pipeline.js';
import { pluginInvalid } from './plugin-loader.js';
import { isFromWorker, type FromWorker, type PluginWorkerData, type PortableError, type SessionHook, type ToWorker } from './plugin-messages.js';
import { clip, jsonText } from '../value-text.js';
import type { CheckContext, Checker, CheckerLogger, SessionInfo, Verdict } from './types.js';

export interface IsolatedPluginOptions {
  specifier: string;
  cwd: string;
  options: Record<string, unknown>;
  moduleCacheDir?: () => string;
  /** Bounds the load and the session hooks as it bounds a check (seconds). */
  timeoutSeconds: number;
  /** The heap its thread may use (MB), `supervisor.plugin_max_memory_mb`; DEFAULT_PLUGIN_MEMORY_MB when not given. */
  maxMemoryMb?: number;
  /** Only to learn the checker's name (see PluginWorkerData.probe). */
  probe?: boolean;
}

/** Lines of a plugin's stdout and stderr logged per thread; the rest is counted, not kept. */
const OUTPUT_LINES_LOGGED = 500;
/** Loading a TypeScript plugin transpiles it on a cold cache: never bounded tighter than this. */
const MIN_LOAD_SECONDS = 30;

/** `supervisor.plugin_max_memory_mb`'s default, for callers without a config (benchmarks, tests). */
const DEFAULT_PLUGIN_MEMORY_MB = 512;

/** Starts the plugin's thread and waits until it loaded; a plugin that cannot load is PLUGIN_INVALID naming it. */
export async function startIsolatedPlugin(options: IsolatedPluginOptions): Promise<Checker & { dispose(): Promise<void> }> {
  const host = new PluginHost(options);
  const ready = await host.start();
  if (ready.type === 'named') throw new Error('a plugin started for its checks answered only its name'); // only a probe asks for that
  return forwardingChecker(host, ready);
}

/**
 * The checker name of a plugin listed in `plugins`: a `defineChecker({ name, create })` plugin
 * says it without `create` being called, and its thread ends at once; an older factory is called
 * with `{}` as before, and that instance is kept (`checker`) for a declaration without options.
 */
export async function probeIsolatedPlugin(
  options: Omit<IsolatedPluginOptions, 'probe' | 'options'>,
): Promise<{ name: string; checker?: Checker & { dispose(): Promise<void> } }> {
  const host = new PluginHost({ ...options, options: {}, probe: true });
  const ready = await host.start();
  if (ready.type === 'named') {
    await host.dispose();
    return { name: ready.name };
  }
  return { name: ready.name, checker: forwardingChecker(host, ready) };
}

function forwardingChecker(host: PluginHost, ready: Ready): Checker & { dispose(): Promise<void> } {
  const checker: Checker & { dispose(): Promise<void> } = {
    name: ready.name,
    check: (ctx, signal) => host.check(ctx, signal) as Promise<Verdict>, // its shape is checked by the pipeline, as for any checker
    // Always present: they carry the session's logger to the plugin's output and end the thread.
    onSessionStart: (info) => host.sessionStart(info),
    onSessionEnd: (info) => host.sessionEnd(info),
    dispose: () => host.dispose(),
  };
  if (ready.hooks.onFrame) checker.onFrame = (frame) => host.frame(frame);
  return checker;
}

type Ready = Extract<FromWorker, { type: 'ready' }>;
type Named = Extract<FromWorker, { type: 'named' }>;

interface Call {
  resolve(value: unknown): void;
  reject(error: Error): void;
  ctx?: CheckContext;
  /** Told to stop: whatever it answers now is ignored. */
  aborted?: boolean;
}

interface Thread {
  worker: Worker;
  ready: Promise<Ready | Named>;
  calls: Map<number, Call>;
  /** Why the thread is gone (set once it is). */
  ended?: string;
  stopping?: string;
}

class PluginHost {
  private thread?: Thread;
  private hooks?: Ready['hooks'];
  private name: string;
  private nextId = 1;
  /** Where the plugin's log calls and output go: the session's logger once known. */
  private logger?: CheckerLogger;
  private malformedSaid = false;
  private session?: { sessionId?: string; cwd: string };

  constructor(private readonly options: IsolatedPluginOptions) {
    this.name = options.specifier;
  }

  async start(): Promise<Ready | Named> {
    const thread = this.spawn();
    const ready = await thread.ready;
    this.name = ready.name;
    if (ready.type === 'ready') this.hooks = ready.hooks;
    return ready;
  }

  async check(ctx: CheckContext, signal: AbortSignal): Promise<unknown> {
    this.logger = ctx.logger;
    const thread = await this.live();
    // The functions stay in this thread (a worker gets data only); the worker reports usage by message.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- taken out to be dropped, never called
    const { logger: _logger, reportCost: _cost, reportUsage: _usage, ...portable } = ctx;
    return this.call(thread, (id) => ({ type: 'check', id, ctx: portable }), signal, ctx);
  }

  async sessionStart(info: SessionInfo): Promise<void> {
    this.logger = info.logger;
    this.session = { sessionId: info.sessionId, cwd: info.cwd };
    if (!this.hooks?.onSessionStart) return;
    await this.sessionHook(await this.live(), 'onSessionStart');
  }

  async sessionEnd(info: SessionInfo): Promise<void> {
    this.logger = info.logger;
    this.session = { sessionId: info.sessionId, cwd: info.cwd };
    const thread = this.thread;
    try {
      if (thread && !thread.ended && this.hooks?.onSessionEnd) await this.sessionHook(thread, 'onSessionEnd');
    } finally {
      if (thread && !thread.ended) await this.stop(thread, 'was stopped: the session ended');
    }
  }

  /** Ends the thread (a plugin the pipeline does not use). */
  async dispose(): Promise<void> {
    if (this.thread) await this.stop(this.thread, 'was stopped: it is not used');
  }

  frame(frame: Frame): void {
    const thread = this.thread;
    if (!thread || thread.ended) return; // a thread that ended starts again at the next check; these frames are gone
    try {
      thread.worker.postMessage({ type: 'frame', frame } satisfies ToWorker);
    } catch {
      // A frame structured clone cannot carry: the plugin misses it.
    }
  }

  /** The running thread, started again (with the session's start replayed) when the last one ended. */
  private async live(): Promise<Thread> {
    if (this.thread && !this.thread.ended) {
      await this.thread.ready;
      return this.thread;
    }
    const why = this.thread?.ended;
    const thread = this.spawn();
    await thread.ready;
    this.logger?.info(`checker "${this.name}": its plugin thread started again`, { checker: this.name, previous_end: why ?? null });
    if (this.session && this.hooks?.onSessionStart) await this.sessionHook(thread, 'onSessionStart');
    return thread;
  }

  private sessionHook(thread: Thread, hook: SessionHook): Promise<unknown> {
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), this.options.timeoutSeconds * 1000);
    const session = this.session ?? { cwd: this.options.cwd };
    return this.call(thread, (id) => ({ type: 'session', id, hook, info: session }), limit.signal).finally(() => clearTimeout(timer));
  }

  /** One request to the thread; an abort gives it ABORT_GRACE_MS to answer, then the thread is stopped. */
  private call(thread: Thread, message: (id: number) => ToWorker, signal: AbortSignal, ctx?: CheckContext): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (thread.ended) return reject(this.endedError(thread.ended));
      const call: Call = { resolve, reject, ctx };
      const onAbort = () => {
        if (!thread.calls.has(id)) return void this.post(thread, { type: 'abort', id, reason: String(signal.reason ?? 'aborted') }); // answered: let it clean up
        call.aborted = true;
        this.post(thread, { type: 'abort', id, reason: String(signal.reason ?? 'aborted') });
        const timer = setTimeout(() => void this.stop(thread, `was stopped: it did not stop within ${ABORT_GRACE_MS} ms of being told to`), ABORT_GRACE_MS);
        timer.unref();
      };
      const settle = () => signal.removeEventListener('abort', onAbort);
      call.resolve = (value) => (settle(), resolve(value));
      call.reject = (error) => (settle(), reject(error));
      thread.calls.set(id, call);
      thread.worker.ref(); // a pending answer keeps ccc alive, an idle plugin does not
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        thread.worker.postMessage(message(id));
      } catch (error) {
        thread.calls.delete(id);
        call.reject(
          new CccError('CHECKER_FAILED', `checker "${this.name}": its context could not be sent to the plugin: ${errorText(error)}`, {
            data: { checker: this.name },
          }),
        );
      }
      if (signal.aborted) onAbort();
    });
  }

  private post(thread: Thread, message: ToWorker): void {
    if (thread.ended) return;
    try {
      thread.worker.postMessage(message);
    } catch {
      // the thread is going
    }
  }

  /** Ends the thread; its pending calls fail with `why` (completing "its plugin <specifier> …"). */
  private async stop(thread: Thread, why: string): Promise<void> {
    if (thread.ended) return;
    thread.stopping = why;
    await thread.worker.terminate();
  }

  private spawn(): Thread {
    const data: PluginWorkerData = {
      specifier: this.options.specifier,
      cwd: this.options.cwd,
      options: this.options.options,
      ...(this.options.moduleCacheDir ? { moduleCacheDir: this.options.moduleCacheDir() } : {}),
      ...(this.options.probe ? { probe: true } : {}),
    };
    const worker = new Worker(workerFile(), { workerData: data, stdout: true, stderr: true, resourceLimits: memoryLimits(this.memoryMb()) });
    const thread: Thread = { worker, calls: new Map(), ready: undefined as unknown as Promise<Ready | Named> };
    this.thread = thread;
    let crash: Error | undefined;
    thread.ready = new Promise<Ready | Named>((resolve, reject) => {
      const loadLimit = Math.max(this.options.timeoutSeconds, MIN_LOAD_SECONDS);
      const timer = setTimeout(() => {
        reject(pluginInvalid(this.options.specifier, `did not finish loading within ${loadLimit}s`));
        void this.stop(thread, 'was stopped: it did not finish loading');
      }, loadLimit * 1000);
      worker.on('message', (message: unknown) => {
        if (!isFromWorker(message)) return this.malformed(message);
        if (message.type === 'ready' || message.type === 'named') {
          clearTimeout(timer);
          if (thread.calls.size === 0) worker.unref();
          resolve(message);
        } else if (message.type === 'invalid') {
          clearTimeout(timer);
          reject(rebuild(message.error, 'PLUGIN_INVALID'));
          void this.stop(thread, 'was stopped: it could not be loaded');
        } else this.onMessage(thread, message);
      });
      worker.on('error', (error) => (crash = error));
      worker.on('exit', (code) => {
        clearTimeout(timer);
        thread.ended = thread.stopping ?? (crash ? this.crashText(crash) : `called process.exit(${code})`);
        reject(pluginInvalid(this.options.specifier, `ended while loading (it ${thread.ended})`));
        for (const [, call] of thread.calls) call.reject(this.endedError(thread.ended, code));
        thread.calls.clear();
      });
    });
    thread.ready.catch(() => {});
    this.capture(worker);
    return thread;
  }

  private onMessage(thread: Thread, message: FromWorker): void {
    if (message.type === 'log') return void this.logger?.[message.level](message.message, { ...message.fields, checker: this.name });
    if (message.type !== 'done' && message.type !== 'failed' && message.type !== 'usage' && message.type !== 'cost') return;
    const call = thread.calls.get(message.id);
    if (!call) return; // an answer after the thread was told to stop, or to a call that ended
    if (message.type === 'usage') return void call.ctx?.reportUsage?.(message.usage);
    if (message.type === 'cost') return void call.ctx?.reportCost?.(message.usd);
    thread.calls.delete(message.id);
    if (thread.calls.size === 0) thread.worker.unref();
    if (call.aborted)
      return call.reject(
        new CccError('CHECKER_TIMEOUT', `checker "${this.name}" answered after it was told to stop; the answer is ignored`, { data: { checker: this.name } }),
      );
    if (message.type === 'done') call.resolve(message.value);
    else call.reject(rebuild(message.error));
  }

  /**
   * A message that is none of the thread's (the plugin posted on the port itself): ignored, and said
   * once in the session's log, since no answer it holds can be trusted.
   */
  private malformed(message: unknown): void {
    if (this.malformedSaid) return;
    this.malformedSaid = true;
    const shown = clip(jsonText(message), 201);
    this.logger?.warn(`checker "${this.name}": its thread sent a message that is not ccc's (${shown}); ignored`, { checker: this.name });
  }

  /** The plugin's stdout and stderr, line by line into the session log (never the terminal, never --json). */
  private capture(worker: Worker): void {
    let logged = 0;
    let dropped = 0;
    for (const stream of ['stdout', 'stderr'] as const) {
      let partial = '';
      const emit = (line: string) => {
        if (logged >= OUTPUT_LINES_LOGGED) return void dropped++;
        logged++;
        this.logger?.[stream === 'stderr' ? 'warn' : 'info'](`checker "${this.name}" wrote to ${stream}`, {
          checker: this.name,
          text: line.length > 2000 ? `${line.slice(0, 2000)}…` : line,
        });
      };
      worker[stream].setEncoding('utf8');
      worker[stream].on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) emit(line);
      });
      worker[stream].on('end', () => {
        if (partial) emit(partial);
        partial = '';
      });
    }
    worker.once('exit', () => {
      if (dropped > 0) this.logger?.warn(`checker "${this.name}" wrote ${dropped} more lines to stdout/stderr; not logged`, { checker: this.name });
    });
  }

  private memoryMb(): number {
    return this.options.maxMemoryMb ?? DEFAULT_PLUGIN_MEMORY_MB;
  }

  /** How a thread that threw its way out ended; running out of its heap names the limit and the key that raises it. */
  private crashText(crash: Error): string {
    if ((crash as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return `crashed: ${crash.message}`;
    return `ran out of memory (limit ${this.memoryMb()} MB; raise supervisor.plugin_max_memory_mb or CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB)`;
  }

  private endedError(why: string, code?: number): CccError {
    return new CccError('CHECKER_FAILED', `checker "${this.name}" failed: its plugin ${this.options.specifier} ${why}`, {
      data: { checker: this.name, plugin: this.options.specifier, ...(code === undefined ? {} : { exit_code: code }) },
    });
  }
}

/** The worker's script: beside this module once built; from `dist/` when this runs from source (tests). */
function workerFile(): string {
  const built = fileURLToPath(new URL('./plugin-worker.js', import.meta.url));
  return fs.existsSync(built) ? built : fileURLToPath(new URL('../../dist/checkers/plugin-worker.js', import.meta.url));
}

/**
 * The thread's heap: the old generation gets the configured size, the young one a slice of it
 * (V8's semi-spaces; 1/16 keeps a 512 MB limit at V8's usual 32 MB young generation).
 */
function memoryLimits(mb: number): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: mb, maxYoungGenerationSizeMb: Math.max(1, Math.min(32, Math.floor(mb / 16))) };
}

/** The plugin's error as thrown there: a CccError keeps its code; others stay plain errors, as the pipeline names them. */
function rebuild(error: PortableError, fallback?: ErrorCode): Error {
  const code = (error.code ?? fallback) as ErrorCode | undefined;
  return code ? new CccError(code, error.message, { data: error.data ?? {} }) : new Error(error.message);
}
