/**
 * `ccc doctor`: everything a ccc here has and lacks, each lacking thing with its fix. Exit 0 when
 * everything a supervised session needs is there, 1 otherwise; `--json` for machines.
 */
import { resolveConfigDir } from '../config/config-dir.js';
import { packageRoot, packageVersion, platformName } from '../native/helper-key.js';
import type { DoctorCheck } from './doctor-check.js';
import { helperChecks } from './helper-checks.js';
import { reviewerCheck, stopHookCheck, testCommandCheck } from './project-checks.js';
import { claudeCheck, configCheck, configDirCheck, promptCheck, type Place } from './session-checks.js';
import { storeCheck } from './store-check.js';
import type { ResolvedConfig } from '../config/types.js';

export interface DoctorReport {
  /** Everything a supervised session needs is there. */
  ok: boolean;
  ccc: string;
  node: string;
  platform: string;
  checks: DoctorCheck[];
}

export async function runDoctor(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<DoctorReport> {
  const place: Place = { ...options, configDir: resolveConfigDir(options.env, options.cwd) };
  const config = await configCheck(place);
  // The helpers first: asking claude its version starts it under the lifeline, which would set the
  // helpers up and leave this check to say "set up by an earlier ccc" about what this doctor did.
  const helpers = helperChecks(place);
  const checks = [
    await claudeCheck(place, config.resolved),
    config.check,
    await configDirCheck(place),
    promptCheck(place, config.resolved),
    ...helpers,
    storeCheck(place),
    await stopHookCheck(place),
    testCommandCheck(place),
    reviewerCheck(place, config.resolved),
    ...(await codexInUse(place, config.resolved)),
  ];
  const ok = checks.every((check) => !check.needed || check.status === 'ok');
  return { ok, ccc: packageVersion(packageRoot), node: process.version, platform: platformName(), checks };
}

/** The codex reviewer's checks, when `codex` is among the configured checkers (loaded only then). */
async function codexInUse(place: Place, resolved: ResolvedConfig | undefined): Promise<DoctorCheck[]> {
  const uses = resolved?.config.supervisor.checkers.some((c) => (typeof c === 'string' ? c : c.use) === 'codex');
  if (!resolved || !uses) return [];
  const { codexChecks } = await import('./codex-checks.js');
  return codexChecks(place, resolved.config.supervisor.codex);
}

const MARK = { ok: '✓', missing: '✗', note: '·' } as const;

export function formatDoctorText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.title.length));
  const lines = [`ccc ${report.ccc}, node ${report.node}, ${report.platform}`];
  for (const check of report.checks) {
    lines.push(`${MARK[check.status]} ${check.title.padEnd(width)}  ${check.detail}`);
    if (check.status === 'missing' && check.fix) lines.push(`  ${' '.repeat(width)}  fix: ${check.fix}`);
  }
  const lacking = report.checks.filter((check) => check.needed && check.status !== 'ok').map((check) => check.title);
  lines.push(lacking.length === 0 ? 'Everything a supervised session needs is here.' : `A supervised session here lacks: ${lacking.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
