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
 * and in every mode, the reporters the config's `reporters` names (`own`): `notify` (also when a
 * webhook URL is set) and the user's own modules, each in its own thread. The CI reports', the
 * notifier's and the user reporters' modules load only when wanted.
 */
import type { ObserverServer } from '../observer/observer-server.js';
import type { ReviewTitle } from '../loop/review-status.js';
import { wantsReports, type ReportTargets } from './ci/report-targets.js';
import type { Reporter } from './reporter.js';
import type { CccConfig } from '../config/types.js';
import { jsonReporter } from './json.js';
import { observerReporter } from './observer.js';
import { progressReporter } from './progress.js';
import { summaryReporter, type ReviewTally } from './summary.js';
import { reviewLimitReporter, type ReviewLimitLog } from './review-limit.js';

type Observed = Pick<ObserverServer, 'publishEvent' | 'publishFrame'>;

/** What the reporters the config names need: the config, the project, and where their warnings and output go. */
export interface OwnReporters {
  config: CccConfig;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A notifier or a user's reporter that fails says so here (the session log; headless also stderr). */
  warn: (message: string) => void;
  /** A user reporter's own output (the session log). */
  log: (message: string) => void;
  moduleCacheDir?: () => string;
}

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
      own?: OwnReporters;
    }
  | { mode: 'interactive'; title: ReviewTitle; stderr: NodeJS.WritableStream; tally: ReviewTally; observer?: Observed; own?: OwnReporters }
  | { mode: 'kanban'; write: (text: string) => void; reviewLimits: ReviewLimitLog; own?: OwnReporters }
  | { mode: 'hook'; own?: OwnReporters };

export async function reportersFor(plan: ReporterPlan): Promise<Reporter[]> {
  return [...(await modeReporters(plan)), ...(plan.own ? await ownReporters(plan.mode, plan.own) : [])];
}

async function modeReporters(plan: ReporterPlan): Promise<Reporter[]> {
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
  const [{ ciReporters }, { reportFiles }, os] = await Promise.all([import('./ci/session-reports.js'), import('./ci/report-files.js'), import('node:os')]);
  return ciReporters({ ...plan, targets: plan.reports, files: reportFiles, hostname: os.hostname() });
}

/** `notify` and the user's modules, as the config names them. */
async function ownReporters(mode: ReporterPlan['mode'], own: OwnReporters): Promise<Reporter[]> {
  const { config } = own;
  if (config.reporters.length === 0 && config.notify.webhook_url === undefined) return [];
  const { BUILT_IN_REPORTERS } = await import('./built-in.js');
  const modules = config.reporters.filter((name) => !BUILT_IN_REPORTERS.includes(name));
  const reporters: Reporter[] = [];
  if (wantsNotifyReporter(config)) {
    const { notifyReporter } = await import('./notify.js');
    reporters.push(notifyReporter({ config, mode, cwd: own.cwd, env: own.env, warn: own.warn }));
  }
  if (modules.length > 0) {
    const { userReporter } = await import('./user-reporter.js');
    const moduleCacheDir = own.moduleCacheDir?.();
    for (const specifier of modules) {
      reporters.push(
        userReporter({
          specifier,
          cwd: own.cwd,
          mode,
          ...(moduleCacheDir ? { moduleCacheDir } : {}),
          maxMemoryMb: config.supervisor.plugin_max_memory_mb,
          warn: own.warn,
          log: own.log,
        }),
      );
    }
  }
  return reporters;
}

/** Named in `reporters`, or a webhook URL configured (setting one is asking for it). */
function wantsNotifyReporter(config: CccConfig): boolean {
  return config.reporters.includes('notify') || config.notify.webhook_url !== undefined;
}
