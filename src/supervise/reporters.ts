/**
 * Which reporters a run gets, decided here for every mode (each a Reporter, reporter.ts):
 *
 * | mode | reporters |
 * |---|---|
 * | headless | progress lines on stderr and the agent's text on stdout, or `--json` lines on stdout; observers; the CI reports `--report` names |
 * | interactive | the terminal title; observers; the summary line after the TUI |
 * | kanban review | progress lines on stderr; the Review Limit Event in kanban's log |
 * | hook | none: the hook's answer is its only output, and the log line every review writes |
 *
 * The CI reports' modules load only when a report is wanted.
 */
import type { ObserverServer } from '../observer/observer-server.js';
import type { ReviewTitle } from '../loop/review-status.js';
import { wantsReports, type ReportTargets } from '../report/report-targets.js';
import type { Reporter } from './reporter.js';
import { jsonReporter } from './reporters/json.js';
import { observerReporter } from './reporters/observer.js';
import { progressReporter } from './reporters/progress.js';
import { summaryReporter, type ReviewTally } from './reporters/summary.js';
import { reviewLimitReporter, type ReviewLimitLog } from './reporters/review-limit.js';

type Observed = Pick<ObserverServer, 'publishEvent' | 'publishFrame'>;

export type ReporterPlan =
  | {
      mode: 'headless';
      json: boolean;
      /** Where the run's text goes while it runs (with observers, a copy goes to them). */
      shown: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
      /** Where the reports' last words go (after the observers are gone). */
      stdout: NodeJS.WritableStream;
      stderr: NodeJS.WritableStream;
      reports: ReportTargets;
      env: NodeJS.ProcessEnv;
      configDir: string;
      observer?: Observed;
    }
  | { mode: 'interactive'; title: ReviewTitle; stderr: NodeJS.WritableStream; tally: ReviewTally; observer?: Observed }
  | { mode: 'kanban'; write: (text: string) => void; reviewLimits: ReviewLimitLog }
  | { mode: 'hook' };

export async function reportersFor(plan: ReporterPlan): Promise<Reporter[]> {
  switch (plan.mode) {
    case 'headless': {
      const { stdout, stderr } = plan.shown;
      const output = plan.json
        ? jsonReporter(stdout)
        : progressReporter({ write: (text) => void stderr.write(text), agentText: (text) => void stdout.write(text) });
      return [output, ...(plan.observer ? [observerReporter(plan.observer)] : []), ...(await ciReporters(plan))];
    }
    case 'interactive':
      return [plan.title, ...(plan.observer ? [observerReporter(plan.observer)] : []), summaryReporter(plan.stderr, plan.tally)];
    case 'kanban':
      return [progressReporter({ write: plan.write }), reviewLimitReporter(plan.reviewLimits)];
    case 'hook':
      return [];
  }
}

async function ciReporters(plan: Extract<ReporterPlan, { mode: 'headless' }>): Promise<Reporter[]> {
  if (!wantsReports(plan.reports)) return [];
  const [{ ciReporters }, { reportFiles }, os] = await Promise.all([
    import('../report/session-reports.js'),
    import('../report/report-files.js'),
    import('node:os'),
  ]);
  return ciReporters({ ...plan, targets: plan.reports, files: reportFiles, hostname: os.hostname() });
}
