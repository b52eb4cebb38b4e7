/**
 * The Keeper's Worker lifecycle (docs/design/mcp.md, "Two processes"): starts the Worker, forwards
 * tool calls to it, restarts it after a crash or a failed health check, queues calls while none is
 * ready, and gives up (fatal) when the restart policy says so. The MCP connection is not here:
 * mcp-server.ts owns it and calls `call()`; whatever happens to Workers, `call()` settles.
 *
 * States: starting → healthy ⇄ unhealthy/busy → (exit) → restarting → starting … or → fatal.
 * `repair()` (self_test) may start a Worker from any state, also fatal.
 *
 * What the Keeper holds (the current Worker, its health monitor, a pending restart, the queued
 * calls) is owned by one `DisposableStore`; `stop()` disposes it. The units own their own parts:
 * the health monitor its check timer, the queue its waiters' timers and abort listeners, the
 * connection the Worker process's listeners.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FeedbackBoard } from '../feedback/board.js';
import type { Logger } from '../../log/logger.js';
import type { McpOptions } from '../options.js';
import { DisposableStore, timeout } from '../../lifetime/disposable-store.js';
import { MutableDisposable } from '../../lifetime/mutable-disposable.js';
import { HealthMonitor } from './health-monitor.js';
import { awaitStart, type PreviousExit, type RepairOutcome } from './repair-outcome.js';
import { createRequestQueue, type RequestQueue } from './request-queue.js';
import { createRestartPolicy, givingUpMessage, type RestartPolicy } from './restart-policy.js';
import { connectWorker, describeExit, type ToolCallRequest, type WorkerConnection } from './worker-connection.js';
import type { WorkerSpawner } from './worker-process.js';
import { errorResult, fatalResult, unavailableResult, workerCrashedResult } from './call-errors.js';
import { createFeedbackRelay, type FeedbackRelay } from './feedback-relay.js';
import { createRestartLog, type RestartLog, type RestartRecord } from './restart-log.js';
import { errorText } from '../../errors.js';

type WorkerStatus = 'starting' | 'healthy' | 'unhealthy' | 'busy' | 'restarting' | 'fatal' | 'stopped';

interface KeeperSnapshot {
  workerStatus: WorkerStatus;
  workerPid: number | null;
  restartCount: number;
  history: RestartRecord[];
  /** Set in the fatal state: what happened and what to do. */
  fatal?: string;
  inFlight: number;
  queued: number;
}

export interface McpKeeperOptions {
  options: Pick<
    McpOptions,
    | 'max_restart_attempts'
    | 'restart_delay_ms'
    | 'health_interval_ms'
    | 'health_timeout_ms'
    | 'health_failures'
    | 'queue_timeout_ms'
    | 'restart_window_ms'
    | 'ready_timeout_ms'
  >;
  spawn: WorkerSpawner;
  logger: Logger;
  board: FeedbackBoard;
  /** The tool set assumed before the first Worker reports its own. */
  initialTools: Tool[];
  onToolsChanged(tools: Tool[]): void;
  onFatal(message: string): void;
  onRestart?: (record: RestartRecord) => void;
}

export interface McpKeeper {
  start(): void;
  /** The result for the client, or 'cancelled' (the SDK then sends nothing). Never rejects. */
  call(request: ToolCallRequest): Promise<CallToolResult | 'cancelled'>;
  tools(): Tool[];
  snapshot(): KeeperSnapshot;
  /** self_test: checks the Worker and restarts it if it is dead, hung, restarting or fatal. */
  repair(): Promise<RepairOutcome>;
  stop(): void;
}

export function createMcpKeeper(deps: McpKeeperOptions): McpKeeper {
  return new Keeper(deps);
}

type RestartCause = { reason: string; trigger: RestartRecord['trigger'] };

class Keeper implements McpKeeper {
  readonly #deps: McpKeeperOptions;
  readonly #policy: RestartPolicy;
  readonly #restarts: RestartLog;
  readonly #feedback: FeedbackRelay;
  /** Everything below that outlives a call; `stop()` releases it, newest first. */
  readonly #store: DisposableStore;
  readonly #queue: RequestQueue;
  /** The restart that waits for `restart_delay_ms`; a launch or `stop()` cancels it. */
  readonly #restart: MutableDisposable;
  /** The current Worker's health checks, from its `ready` until it exits or is replaced. */
  readonly #health: MutableDisposable<HealthMonitor>;
  #current: WorkerConnection | undefined;
  readonly #hung = new WeakSet<WorkerConnection>();
  #tools: Tool[];
  #status: WorkerStatus = 'starting';
  #lastExit: PreviousExit | undefined;
  #fatal: string | undefined;
  #generation = 0;

  constructor(deps: McpKeeperOptions) {
    this.#deps = deps;
    const { options, logger } = deps;
    this.#policy = createRestartPolicy({ maxAttempts: options.max_restart_attempts, windowMs: options.restart_window_ms });
    this.#restarts = createRestartLog(deps.onRestart);
    this.#feedback = createFeedbackRelay(deps.board);
    this.#tools = deps.initialTools;
    this.#store = new DisposableStore({ onError: (error) => logger.error(`stopping the keeper: ${errorText(error)}`) });
    // Released in reverse: no restart or health check fires once the queued calls are told the
    // server stops, and the Worker is killed last.
    this.#store.defer(() => this.#current?.kill('the MCP server is shutting down'));
    this.#queue = this.#store.add(createRequestQueue());
    this.#health = this.#store.add(new MutableDisposable<HealthMonitor>());
    this.#restart = this.#store.add(new MutableDisposable());
  }

  start(): void {
    this.#launch();
  }

  async call(request: ToolCallRequest): Promise<CallToolResult | 'cancelled'> {
    const { options } = this.#deps;
    const deadline = Date.now() + options.queue_timeout_ms;
    for (;;) {
      if (request.signal.aborted) return 'cancelled';
      if (this.#status === 'fatal') return fatalResult(this.#fatal ?? 'the worker is not running');
      if (this.#status === 'stopped') return errorResult('The ccc MCP server is shutting down.');
      const conn = this.#current;
      if (conn && this.#status !== 'starting') {
        const outcome = await conn.call(request);
        if (outcome.kind === 'result') return outcome.result;
        if (outcome.kind === 'cancelled') return 'cancelled';
        return workerCrashedResult(request.name, describeExit(outcome.exit));
      }
      const waited = await this.#queue.wait(request.signal, deadline);
      if (waited === 'aborted') return 'cancelled';
      if (waited === 'timeout') return unavailableResult(options.queue_timeout_ms, this.#lastExit?.reason);
      if (waited === 'stopped') return errorResult('The ccc MCP server is shutting down.');
      // 'ready' or 'fatal': look at the state again.
    }
  }

  tools(): Tool[] {
    return this.#tools;
  }

  snapshot(): KeeperSnapshot {
    return {
      workerStatus: this.#status,
      workerPid: this.#current?.pid ?? null,
      restartCount: this.#restarts.count(),
      history: this.#restarts.list(),
      fatal: this.#fatal,
      inFlight: this.#current?.inFlight() ?? 0,
      queued: this.#queue.size(),
    };
  }

  async repair(): Promise<RepairOutcome> {
    const conn = this.#current;
    if (conn && this.#status === 'starting') return awaitStart(conn, this.#lastExit);
    if (conn) {
      const timeoutMs = this.#deps.options.health_timeout_ms;
      if ((await conn.ping(timeoutMs)) || conn.inFlight() > 0) return { kind: 'ok', pid: conn.pid ?? null };
      this.#current = undefined; // its exit is ours, not a crash to count
      this.#health.clear();
      this.#lastExit = { pid: conn.pid ?? null, reason: `did not answer a health check within ${timeoutMs} ms` };
      conn.kill(this.#lastExit.reason);
    }
    const reason = this.#lastExit?.reason ?? 'the worker was not running';
    const started = this.#launch({ reason: `self_test repair: ${reason}`, trigger: 'self_test' });
    return awaitStart(started, this.#lastExit);
  }

  stop(): void {
    this.#status = 'stopped';
    this.#store.dispose();
  }

  #launch(restart?: RestartCause): WorkerConnection {
    const { options, logger } = this.#deps;
    this.#restart.clear();
    const generation = (this.#generation += 1);
    const conn = connectWorker({
      process: this.#deps.spawn(generation),
      generation,
      readyTimeoutMs: options.ready_timeout_ms,
      logger,
      onFeedback: (message) => this.#feedback.handle(conn, message),
    });
    this.#current = conn;
    this.#status = 'starting';
    const record = restart ? this.#restarts.add({ ...restart, previousPid: this.#lastExit?.pid ?? null, newPid: conn.pid ?? null }) : undefined;
    logger.info(restart ? `restarting the worker (${restart.reason})` : 'starting the worker', { pid: conn.pid, generation });
    conn.onExit((exit) => this.#onExit(conn, describeExit(exit), this.#hung.has(conn) ? 'health_check' : 'crash'));
    conn.ready.then(
      (workerTools) => {
        if (record) this.#restarts.settle(record, 'ready');
        if (this.#current !== conn) return;
        logger.info('worker ready', { pid: conn.pid, generation });
        this.#status = 'healthy';
        this.#fatal = undefined;
        this.#setTools(workerTools);
        this.#health.value = this.#monitor(conn);
        this.#queue.releaseAll();
      },
      () => record && this.#restarts.settle(record, 'failed'),
    );
    return conn;
  }

  #monitor(conn: WorkerConnection): HealthMonitor {
    const { options, logger } = this.#deps;
    return new HealthMonitor({
      intervalMs: options.health_interval_ms,
      timeoutMs: options.health_timeout_ms,
      failures: options.health_failures,
      ping: (timeoutMs) => conn.ping(timeoutMs),
      isBusy: () => conn.inFlight() > 0,
      onState: (state) => this.#current === conn && (this.#status = state),
      onHung: (misses) => {
        this.#hung.add(conn);
        conn.kill(`${misses} health checks missed in a row`);
      },
      logger,
    });
  }

  #onExit(conn: WorkerConnection, reason: string, trigger: RestartRecord['trigger']): void {
    this.#feedback.forget(conn);
    if (this.#current !== conn) return; // a Worker we replaced on purpose
    this.#health.clear();
    this.#current = undefined;
    this.#lastExit = { pid: conn.pid ?? null, reason };
    if (this.#status === 'stopped') return;
    this.#deps.logger.error(`worker stopped: ${reason}`, { pid: conn.pid, generation: conn.generation });
    if (!this.#policy.allows(Date.now())) return this.#enterFatal(reason);
    this.#status = 'restarting';
    this.#restart.value = timeout(() => {
      this.#policy.record(Date.now());
      this.#launch({ reason, trigger });
    }, this.#deps.options.restart_delay_ms);
  }

  #enterFatal(reason: string): void {
    this.#status = 'fatal';
    this.#fatal = givingUpMessage(this.#policy, reason, Date.now());
    this.#deps.logger.error(`giving up on the worker: ${this.#fatal}`);
    this.#queue.rejectAll('fatal');
    this.#deps.onFatal(this.#fatal);
  }

  #setTools(next: Tool[]): void {
    if (JSON.stringify(next) === JSON.stringify(this.#tools)) return;
    this.#tools = next;
    this.#deps.onToolsChanged(next);
  }
}
