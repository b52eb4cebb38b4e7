/**
 * The body of `GET /api/health` (docs/design/mcp.md): overall status plus the Keeper
 * fields `enabled`, `pid`, `workerStatus`, `restartCount`.
 */
export interface HealthReport {
  status: 'ok' | 'degraded' | 'fatal';
  mode: 'supervisor' | 'single-process';
  supervisor: { enabled: boolean; pid: number; workerStatus: string; restartCount: number };
  worker: { pid: number | null };
  uptimeSeconds: number;
}

export function healthReport(input: {
  mode: 'supervisor' | 'single-process';
  startedAt: number;
  workerStatus: string;
  workerPid: number | null;
  restartCount: number;
}): HealthReport {
  const status = input.workerStatus === 'fatal' ? 'fatal' : ['healthy', 'busy', 'in-process'].includes(input.workerStatus) ? 'ok' : 'degraded';
  return {
    status,
    mode: input.mode,
    supervisor: { enabled: input.mode === 'supervisor', pid: process.pid, workerStatus: input.workerStatus, restartCount: input.restartCount },
    worker: { pid: input.workerPid },
    uptimeSeconds: Math.round((Date.now() - input.startedAt) / 1000),
  };
}
