/**
 * `self_test` (docs/design/mcp.md, "The tools"): checks every component and repairs the Worker when it is
 * dead, hung, restarting or given up. The checks run in the Keeper (the Worker may be the
 * broken part); in single-process mode the "worker" is this process and needs no repair.
 */
import os from 'node:os';
import type { RepairOutcome } from '../keeper/repair-outcome.js';
import type { RestartRecord } from '../keeper/restart-log.js';

type ComponentStatus = 'ok' | 'restarted' | 'failed' | 'disabled';

export interface ComponentHealth {
  status: ComponentStatus;
  detail?: string;
}

export interface SelfTestResult {
  timestamp: string;
  health: {
    supervisor: ComponentHealth & { pid: number; mode: 'supervisor' | 'single-process'; uptimeSeconds: number };
    worker: ComponentHealth & { pid: number | null };
    webServer: ComponentHealth & { url?: string };
    database: ComponentHealth & { path: string };
  };
  /** Present only when self_test repaired something. */
  autoRepair?: { action: 'worker_restarted'; previousPid: number | null; newPid: number | null; reason: string };
  diagnostics: {
    system: { platform: string; nodeVersion: string; totalMemory: number; freeMemory: number };
    restartHistory: RestartRecord[];
    restartCount: number;
    restartLimit: { maxAttempts: number; windowMinutes: number };
  };
  summary: string;
}

export interface SelfTestHost {
  mode: 'supervisor' | 'single-process';
  startedAt: number;
  repair(): Promise<RepairOutcome>;
  restarts(): { history: RestartRecord[]; count: number; maxAttempts: number; windowMs: number };
  webServer(): Promise<ComponentHealth & { url?: string }>;
  database(): ComponentHealth & { path: string };
}

export async function runSelfTest(host: SelfTestHost): Promise<SelfTestResult> {
  const repair = await host.repair();
  const [webServer, database] = [await host.webServer(), host.database()];
  const worker = workerHealth(repair);
  const restarts = host.restarts();
  const result: SelfTestResult = {
    timestamp: new Date().toISOString(),
    health: {
      supervisor: {
        status: host.mode === 'supervisor' ? 'ok' : 'disabled',
        pid: process.pid,
        mode: host.mode,
        uptimeSeconds: Math.round((Date.now() - host.startedAt) / 1000),
        ...(host.mode === 'single-process' ? { detail: 'single-process mode (--no-supervisor): tools run in this process, nothing restarts them' } : {}),
      },
      worker,
      webServer,
      database,
    },
    diagnostics: {
      system: { platform: process.platform, nodeVersion: process.version, totalMemory: os.totalmem(), freeMemory: os.freemem() },
      restartHistory: restarts.history,
      restartCount: restarts.count,
      restartLimit: { maxAttempts: restarts.maxAttempts, windowMinutes: Math.round(restarts.windowMs / 60000) },
    },
    summary: '',
  };
  if (repair.kind === 'restarted') {
    result.autoRepair = { action: 'worker_restarted', previousPid: repair.previousPid, newPid: repair.newPid, reason: repair.reason };
  }
  result.summary = summarize(result, repair);
  return result;
}

function workerHealth(repair: RepairOutcome): SelfTestResult['health']['worker'] {
  switch (repair.kind) {
    case 'ok':
      return { status: 'ok', pid: repair.pid };
    case 'restarted':
      return { status: 'restarted', pid: repair.newPid, detail: `restarted after: ${repair.reason}` };
    case 'failed':
      return { status: 'failed', pid: null, detail: `restart failed: ${repair.error} (it had stopped: ${repair.reason})` };
  }
}

function summarize(result: SelfTestResult, repair: RepairOutcome): string {
  const { webServer, database } = result.health;
  const problems = [
    webServer.status === 'failed' ? `the web server is not answering (${webServer.detail ?? 'no detail'}), so collect_feedback has no page` : '',
    database.status === 'failed' ? `the database at ${database.path} is not usable (${database.detail ?? 'no detail'})` : '',
  ].filter(Boolean);
  const rest = problems.length ? ` Problems: ${problems.join('; ')}.` : '';
  if (repair.kind === 'failed') {
    return `Auto-repair failed: the worker could not be restarted (${repair.error}). Its tools are unavailable; manual intervention is needed: read the server log (stderr) and restart the MCP server.${rest}`;
  }
  if (repair.kind === 'restarted') {
    return `Auto-repair done: the worker (pid ${repair.previousPid ?? 'none'}) had stopped (${repair.reason}) and was restarted as pid ${repair.newPid}.${rest || ' All other checks are ok.'}`;
  }
  if (problems.length) return `The worker is ok, but: ${problems.join('; ')}.`;
  return result.health.supervisor.mode === 'supervisor'
    ? 'All checks are ok: supervisor, worker, web server and database.'
    : 'All checks are ok (single-process mode, no supervisor): tools, web server and database.';
}
