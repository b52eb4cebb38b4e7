/**
 * The Keeper's Worker lifecycle (docs/design/mcp.md, "Two processes"): starts the Worker, forwards
 * tool calls to it, restarts it after a crash or a failed health check, queues calls while none is
 * ready, and gives up (fatal) when the restart policy says so. The MCP connection is not here:
 * mcp-server.ts owns it and calls `call()`; whatever happens to Workers, `call()` settles.
 *
 * States: starting → healthy ⇄ unhealthy/busy → (exit) → restarting → starting … or → fatal.
 * `repair()` (self_test) may start a Worker from any state, also fatal.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FeedbackBoard } from '../feedback/board.js';
import type { Logger } from '../../log/logger.js';
import type { McpOptions } from '../options.js';
import { startHealthMonitor, type HealthMonitor } from './health-monitor.js';
import { createRequestQueue } from './request-queue.js';
import { createRestartPolicy } from './restart-policy.js';
import { connectWorker, describeExit, type ToolCallRequest, type WorkerConnection } from './worker-connection.js';
import type { WorkerSpawner } from './worker-process.js';
import { errorResult, fatalResult, unavailableResult, workerCrashedResult } from './call-errors.js';
import { createFeedbackRelay } from './feedback-relay.js';
import { createRestartLog, type RestartLog, type RestartRecord } from './restart-log.js';
import { errorText } from '../../errors.js';

export type WorkerStatus = 'starting' | 'healthy' | 'unhealthy' | 'busy' | 'restarting' | 'fatal' | 'stopped';

export interface KeeperSnapshot {
  workerStatus: WorkerStatus;
  workerPid: number | null;
  restartCount: number;
  history: RestartRecord[];
  /** Set in the fatal state: what happened and what to do. */
  fatal?: string;
  inFlight: number;
  queued: number;
}

/** What `repair()` did: nothing was wrong, a Worker was (re)started, or that failed. */
export type RepairOutcome =
  | { kind: 'ok'; pid: number | null }
  | { kind: 'restarted'; previousPid: number | null; newPid: number | null; reason: string }
  | { kind: 'failed'; previousPid: number | null; reason: string; error: string };

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
  const { options, logger } = deps;
  const policy = createRestartPolicy({ maxAttempts: options.max_restart_attempts, windowMs: options.restart_window_ms });
  const queue = createRequestQueue();
  const restarts: RestartLog = createRestartLog(deps.onRestart);
  let tools = deps.initialTools;
  let status: WorkerStatus = 'starting';
  let current: WorkerConnection | undefined;
  let health: HealthMonitor | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let lastExit: { pid: number | null; reason: string } | undefined;
  let fatal: string | undefined;
  let generation = 0;
  const hung = new WeakSet<WorkerConnection>();

  function launch(restart?: { reason: string; trigger: RestartRecord['trigger'] }): WorkerConnection {
    clearTimeout(restartTimer);
    generation += 1;
    const conn = connectWorker({
      process: deps.spawn(generation),
      generation,
      readyTimeoutMs: options.ready_timeout_ms,
      logger,
      onFeedback: (message) => feedback.handle(conn, message),
    });
    current = conn;
    status = 'starting';
    const record = restart ? restarts.add({ ...restart, previousPid: lastExit?.pid ?? null, newPid: conn.pid ?? null }) : undefined;
    logger.info(restart ? `restarting the worker (${restart.reason})` : 'starting the worker', { pid: conn.pid, generation });
    conn.onExit((exit) => onExit(conn, describeExit(exit), hung.has(conn) ? 'health_check' : 'crash'));
    conn.ready.then(
      (workerTools) => {
        if (record) restarts.settle(record, 'ready');
        if (current !== conn) return;
        logger.info('worker ready', { pid: conn.pid, generation });
        status = 'healthy';
        fatal = undefined;
        setTools(workerTools);
        health = monitor(conn);
        queue.releaseAll();
      },
      () => record && restarts.settle(record, 'failed'),
    );
    return conn;
  }

  function monitor(conn: WorkerConnection): HealthMonitor {
    return startHealthMonitor({
      intervalMs: options.health_interval_ms,
      timeoutMs: options.health_timeout_ms,
      failures: options.health_failures,
      ping: (timeoutMs) => conn.ping(timeoutMs),
      isBusy: () => conn.inFlight() > 0,
      onState: (state) => current === conn && (status = state),
      onHung: (misses) => {
        hung.add(conn);
        conn.kill(`${misses} health checks missed in a row`);
      },
      logger,
    });
  }

  function onExit(conn: WorkerConnection, reason: string, trigger: RestartRecord['trigger']) {
    feedback.forget(conn);
    if (current !== conn) return; // a Worker we replaced on purpose
    health?.stop();
    current = undefined;
    lastExit = { pid: conn.pid ?? null, reason };
    if (status === 'stopped') return;
    logger.error(`worker stopped: ${reason}`, { pid: conn.pid, generation: conn.generation });
    if (!policy.allows(Date.now())) return enterFatal(reason);
    status = 'restarting';
    restartTimer = setTimeout(() => {
      policy.record(Date.now());
      launch({ reason, trigger });
    }, options.restart_delay_ms);
  }

  function enterFatal(reason: string) {
    status = 'fatal';
    const minutes = Math.round(policy.windowMs / 60000);
    fatal =
      `The ccc MCP worker keeps stopping (last: ${reason}). It was restarted ${policy.countInWindow(Date.now())} times in the last ` +
      `${minutes} minutes, the limit (mcp.max_restart_attempts=${policy.maxAttempts}), so it is no longer restarted and its tools ` +
      'are unavailable. Call the self_test tool to try a repair, or restart the MCP server; the server log (stderr) has the details.';
    logger.error(`giving up on the worker: ${fatal}`);
    queue.rejectAll('fatal');
    deps.onFatal(fatal);
  }

  function setTools(next: Tool[]) {
    if (JSON.stringify(next) === JSON.stringify(tools)) return;
    tools = next;
    deps.onToolsChanged(next);
  }

  const feedback = createFeedbackRelay(deps.board);

  async function call(request: ToolCallRequest): Promise<CallToolResult | 'cancelled'> {
    const deadline = Date.now() + options.queue_timeout_ms;
    for (;;) {
      if (request.signal.aborted) return 'cancelled';
      if (status === 'fatal') return fatalResult(fatal ?? 'the worker is not running');
      if (status === 'stopped') return errorResult('The ccc MCP server is shutting down.');
      const conn = current;
      if (conn && status !== 'starting') {
        const outcome = await conn.call(request);
        if (outcome.kind === 'result') return outcome.result;
        if (outcome.kind === 'cancelled') return 'cancelled';
        return workerCrashedResult(request.name, describeExit(outcome.exit));
      }
      const waited = await queue.wait(request.signal, deadline);
      if (waited === 'aborted') return 'cancelled';
      if (waited === 'timeout') return unavailableResult(options.queue_timeout_ms, lastExit?.reason);
      if (waited === 'stopped') return errorResult('The ccc MCP server is shutting down.');
      // 'ready' or 'fatal': look at the state again.
    }
  }

  async function repair(): Promise<RepairOutcome> {
    const conn = current;
    if (conn && status === 'starting') return awaitStart(conn);
    if (conn) {
      if ((await conn.ping(options.health_timeout_ms)) || conn.inFlight() > 0) return { kind: 'ok', pid: conn.pid ?? null };
      current = undefined; // its exit is ours, not a crash to count
      health?.stop();
      lastExit = { pid: conn.pid ?? null, reason: `did not answer a health check within ${options.health_timeout_ms} ms` };
      conn.kill(lastExit.reason);
    }
    const reason = lastExit?.reason ?? 'the worker was not running';
    return awaitStart(launch({ reason: `self_test repair: ${reason}`, trigger: 'self_test' }));
  }

  /** Waits for a starting Worker; a first start (no Worker before it) is no repair. */
  async function awaitStart(conn: WorkerConnection): Promise<RepairOutcome> {
    const previous = lastExit;
    try {
      await conn.ready;
      if (!previous) return { kind: 'ok', pid: conn.pid ?? null };
      return { kind: 'restarted', previousPid: previous.pid, newPid: conn.pid ?? null, reason: previous.reason };
    } catch (error) {
      const reason = previous?.reason ?? 'the worker was starting';
      return { kind: 'failed', previousPid: previous?.pid ?? null, reason, error: errorText(error) };
    }
  }

  return {
    start: () => void launch(),
    call,
    tools: () => tools,
    repair,
    snapshot: () => ({
      workerStatus: status,
      workerPid: current?.pid ?? null,
      restartCount: restarts.count(),
      history: restarts.list(),
      fatal,
      inFlight: current?.inFlight() ?? 0,
      queued: queue.size(),
    }),
    stop() {
      status = 'stopped';
      clearTimeout(restartTimer);
      health?.stop();
      queue.rejectAll('stopped');
      current?.kill('the MCP server is shutting down');
    },
  };
}
