/**
 * `ccc sessions [--json]`: the supervised sessions running now (the `sessions/<pid>.json` of
 * docs/design/files.md whose process is alive): pid, cwd, session id, iteration, last verdict and the
 * observer URL, so a URL that scrolled away under the TUI can be found again; and the
 * `ccc mcp` servers running now (`mcp-servers/<pid>.json`) with their feedback page's address,
 * which an MCP client's log may show with the token redacted.
 */
import { resolveConfigDir } from '../../config/config-dir.js';
import type { McpServerRecord } from '../../mcp/running-server.js';
import type { SupervisedSession } from '../../mcp/tools/supervisor-status.js';
import { shownVerdict } from '../../checkers/verdict-text.js';
import { reviewKindDetails, reviewKindOf, verificationOf } from '../../checkers/verification.js';
import { dollars } from '../../claude/usage.js';
import { spendText } from '../../loop/spend-line.js';
import { inertLine } from '../../pty/inert-text.js';
import type { RegisterCommand } from './register-command.js';

export const registerSessionsCommand: RegisterCommand = (program) => {
  program
    .command('sessions')
    .description('List the running supervised sessions (pid, cwd, session id, iteration, last verdict, observer URL) and ccc mcp servers (feedback page URL).')
    .option('--json', 'print them as JSON: {"sessions": […], "mcpServers": […]}')
    .action(async (options: { json?: boolean }) => {
      const { readSupervisorStatus } = await import('../../mcp/tools/supervisor-status.js');
      const { readRunningMcpServers } = await import('../../mcp/running-server.js');
      const configDir = resolveConfigDir(process.env, process.cwd());
      const status = await readSupervisorStatus({ configDir });
      const mcp = await readRunningMcpServers(configDir);
      for (const problem of [...status.problems, ...mcp.problems]) process.stderr.write(`ccc: warning: ${problem.file}: ${problem.error}\n`);
      const mcpServers = mcp.servers.map(mcpServerView);
      if (options.json) {
        const sessions = status.sessions.map((s) =>
          s.lastVerdict ? { ...s, lastVerdict: { ...s.lastVerdict, verification: verificationOf(s.lastVerdict.completed, s.lastVerdict.evidence) } } : s,
        );
        process.stdout.write(`${JSON.stringify({ sessions, mcpServers }, null, 2)}\n`);
        return;
      }
      const sessions = status.sessions.length === 0 ? ['No supervised session is running.\n'] : status.sessions.map(formatSession);
      process.stdout.write([...sessions, ...mcpServers.map(formatMcpServer)].join('\n'));
    });
};

interface McpServerView {
  pid: number;
  mode: McpServerRecord['mode'];
  cwd: string;
  startedAt: string;
  /** The feedback page, its access token included. */
  pageUrl?: string;
  healthUrl?: string;
}

function mcpServerView(record: McpServerRecord): McpServerView {
  return { pid: record.pid, mode: record.mode, cwd: record.cwd, startedAt: record.started_at, pageUrl: record.page_url, healthUrl: record.health_url };
}

function formatMcpServer(s: McpServerView): string {
  return [
    `ccc mcp  pid ${s.pid}  (${s.mode} mode)`,
    `  cwd       ${s.cwd}`,
    `  started   ${s.startedAt}`,
    `  feedback  ${s.pageUrl ?? 'none (its web server did not start: see the server log)'}`,
    '',
  ].join('\n');
}

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
    const clipped = feedback.length > FEEDBACK_CHARS ? `${feedback.slice(0, FEEDBACK_CHARS - 1)}…` : feedback;
    const spend = v.spent_usd === undefined ? '' : spendText({ ...v, spent_usd: v.spent_usd, task_spent_usd: v.task_spent_usd ?? v.spent_usd });
    const shown = shownVerdict(v.completed, v.evidence);
    const details = [v.checker, shown.details, v.cost_usd === undefined ? '' : dollars(v.cost_usd), spend, reviewKindDetails(reviewKindOf(v.review)), v.at]
      .filter(Boolean)
      .join(', ');
    lines.push(`  verdict   ${shown.sign} ${v.completed ? 'complete' : 'not done'} (${inertLine(details)})${clipped ? `: ${inertLine(clipped)}` : ''}`);
  }
  lines.push(`  observer  ${s.observerUrl ?? 'none (start with --observe to let others watch)'}`);
  return `${lines.join('\n')}\n`;
}
