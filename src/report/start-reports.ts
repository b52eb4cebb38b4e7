/**
 * The reports of a headless launch, or nothing at all when none is wanted (then none of their
 * modules load).
 */
import os from 'node:os';
import type { ReportedSession, SessionReports } from './session-reports.js';
import { wantsReports, type ReportTargets } from './report-targets.js';

export async function startSessionReports(
  session: ReportedSession,
  targets: ReportTargets,
  io: { env: NodeJS.ProcessEnv; json: boolean; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<SessionReports> {
  if (!wantsReports(targets)) return { finish: async () => {} };
  const { startReports } = await import('./session-reports.js');
  const { reportFiles } = await import('./report-files.js');
  return startReports(session, { targets, ...io, files: reportFiles, hostname: os.hostname() });
}
