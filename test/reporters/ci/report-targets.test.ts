/** Which reports a run writes, from `--report` and the environment; bad values are usage errors. */
import { describe, expect, it } from 'vitest';
import { parseSupervisorArgs } from '../../../src/cli/supervisor-args.js';
import { reportTargets } from '../../../src/reporters/ci/report-targets.js';

const headless = { env: {}, cwd: '/work', headless: true };

describe('reportTargets', () => {
  it('reads every --report, files resolved against the working directory', () => {
    const args = parseSupervisorArgs(['--report', 'junit=out/j.xml', '--report=events=/abs/e.jsonl', '--report', 'github', '-p', 't']);
    expect(args.reports).toEqual(['junit=out/j.xml', 'events=/abs/e.jsonl', 'github']);
    expect(reportTargets(args.reports!, headless)).toEqual({ github: true, junit: '/work/out/j.xml', events: '/abs/e.jsonl' });
  });

  it('GitHub by itself on a GitHub runner, headless only, unless --report none', () => {
    const env = { GITHUB_ACTIONS: 'true' };
    expect(reportTargets([], { ...headless, env })).toEqual({ github: true });
    expect(reportTargets(['none'], { ...headless, env })).toEqual({ github: false });
    expect(reportTargets([], { ...headless, env, headless: false })).toEqual({ github: false });
    expect(reportTargets([], { ...headless, env: { GITHUB_ACTIONS: 'false' } })).toEqual({ github: false });
  });

  it('bad values and combinations are usage errors (exit 2)', () => {
    const error = (values: string[], options = headless) => {
      try {
        reportTargets(values, options);
      } catch (e) {
        return { message: (e as Error).message, exitCode: (e as { exitCode: number }).exitCode };
      }
      return undefined;
    };
    expect(error(['html'])).toEqual({ message: '--report must be github, junit=<file>, events=<file> or none (got "html"). See `ccc --help`.', exitCode: 2 });
    expect(error(['junit'])?.message).toMatch(/^--report junit= needs a file name/);
    expect(error(['junit='])?.message).toMatch(/^--report junit= needs a file name/);
    expect(error(['github=x'])?.message).toMatch(/^--report must be/);
    expect(error(['none', 'github'])?.message).toMatch(/^--report none cannot go with other reports/);
    expect(error(['github'], { ...headless, headless: false })?.message).toMatch(/^--report is for headless runs/);
  });
});
