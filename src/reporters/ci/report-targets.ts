/**
 * Which reports a headless run writes, from its `--report` values and the environment: the GitHub
 * Actions one by itself on a GitHub runner (`GITHUB_ACTIONS=true`), unless `--report none`;
 * `--report github` asks for it anywhere; `junit=<file>` and `events=<file>` write those files.
 * A leaf: the launch checks the values before anything starts.
 */
import path from 'node:path';
import { CccError } from '../../errors.js';

export interface ReportTargets {
  github: boolean;
  /** Absolute paths. */
  junit?: string;
  events?: string;
}

const REPORT_VALUES = 'github, junit=<file>, events=<file> or none';

export function reportTargets(values: readonly string[], options: { env: NodeJS.ProcessEnv; cwd: string; headless: boolean }): ReportTargets {
  const targets: ReportTargets = { github: false };
  let none = false;
  for (const value of values) {
    const eq = value.indexOf('=');
    const kind = eq === -1 ? value : value.slice(0, eq);
    const file = eq === -1 ? undefined : value.slice(eq + 1);
    if ((kind === 'github' || kind === 'none') && file === undefined) {
      if (kind === 'github') targets.github = true;
      else none = true;
    } else if ((kind === 'junit' || kind === 'events') && file) {
      targets[kind] = path.resolve(options.cwd, file);
    } else if (kind === 'junit' || kind === 'events') {
      throw usage(`--report ${kind}= needs a file name (${kind}=<file>)`);
    } else {
      throw usage(`--report must be ${REPORT_VALUES} (got "${value}")`);
    }
  }
  if (values.length > 0 && !options.headless) throw usage('--report is for headless runs (-p "<task>")');
  if (none && (targets.github || targets.junit || targets.events)) throw usage('--report none cannot go with other reports');
  if (!none && options.headless && options.env.GITHUB_ACTIONS === 'true') targets.github = true;
  return targets;
}

export function wantsReports(targets: ReportTargets): boolean {
  return targets.github || targets.junit !== undefined || targets.events !== undefined;
}

function usage(message: string): CccError {
  return new CccError('USAGE', `${message}. See \`ccc --help\`.`);
}
