/**
 * `ccc sessions [--json]`: the supervised sessions running now (design section 5's
 * `sessions/<pid>.json` whose process is alive): pid, cwd, session id, iteration, last verdict and
 * the observer URL, so a URL that scrolled away under the TUI can be found again.
 */
import { resolveConfigDir } from '../../config/config-dir.js';
import type { SupervisedSession } from '../../mcp/tools/supervisor-status.js';
import { evidenceText } from '../../checkers/evidence.js';
import { dollars } from '../../claude/usage.js';
import { inertLine } from '../../pty/inert-text.js';
import type { RegisterCommand } from './index.js';

export const registerSessionsCommand: RegisterCommand = (program) => {
  program
    .command('sessions')
    .description('List the running supervised sessions: pid, cwd, session id, iteration, last verdict, observer URL.')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      const { readSupervisorStatus } = await import('../../mcp/tools/supervisor-status.js');
      const status = await readSupervisorStatus({ configDir: resolveConfigDir(process.env, process.cwd()) });
      for (const problem of status.problems) process.stderr.write(`ccc: warning: ${problem.file}: ${problem.error}\n`);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(status.sessions, null, 2)}\n`);
        return;
      }
      process.stdout.write(status.sessions.length === 0 ? 'No supervised session is running.\n' : status.sessions.map(formatSession).join('\n'));
    });
};

const FEEDBACK_CHARS = 100;

export function formatSession(s: SupervisedSession): string {
  const iteration = s.iteration === undefined ? 'no review yet' : `iteration ${s.iteration}/${s.maxIterations ?? '?'}`;
  const lines = [
    `pid ${s.pid}  session ${s.sessionId ?? '(not known yet)'}  ${iteration}${s.enabled === false ? '  (supervisor off)' : ''}`,
    `  cwd       ${s.cwd}`,
    `  started   ${s.startedAt}`,
  ];
  if (s.lastVerdict) {
    const v = s.lastVerdict;
    const feedback = v.feedback.replace(/\s+/g, ' ').trim();
    const shown = feedback.length > FEEDBACK_CHARS ? `${feedback.slice(0, FEEDBACK_CHARS - 1)}…` : feedback;
    const details = [v.checker, evidenceText(v.evidence, v.completed), v.cost_usd === undefined ? '' : dollars(v.cost_usd), v.at].filter(Boolean).join(', ');
    lines.push(`  verdict   ${v.completed ? 'complete' : 'not done'} (${inertLine(details)})${shown ? `: ${inertLine(shown)}` : ''}`);
  }
  lines.push(`  observer  ${s.observerUrl ?? 'none (start with --observe to let others watch)'}`);
  return `${lines.join('\n')}\n`;
}
