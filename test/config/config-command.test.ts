/** `ccc config` through the built CLI (dist/cli/main.js): what a user sees, exit codes included. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

function ccc(args: string[], env: NodeJS.ProcessEnv = {}, cwd = t.project) {
  return runProcess(process.execPath, [cccBin, ...args], { cwd, env: { ...t.env, ...env } });
}

describe('ccc config', () => {
  it('prints every effective value with its layer, naming the env variable and the files', async () => {
    const globalFile = t.write('home/.claude/ccc.json', JSON.stringify({ supervisor: { timeout_seconds: 120 }, observer: { token: 'abcdefghijklmnop' } }));
    const projectFile = t.write(
      'work/project/ccc.config.ts',
      "import { defineConfig } from 'ccc-supervisor';\nconst n: number = 3;\nexport default defineConfig({ kanban: { max_retries: n } });\n",
    );
    const r = await ccc(['config'], { CCC_SUPERVISOR_MAX_ITERATIONS: '30' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^supervisor\.max_iterations = 30 +\(env: CCC_SUPERVISOR_MAX_ITERATIONS\)$/));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^supervisor\\.timeout_seconds = 120 +\\(global: ${escape(globalFile)}\\)$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^kanban\\.max_retries = 3 +\\(project: ${escape(projectFile)}\\)$`)));
    expect(lines).toContainEqual(expect.stringMatching(/^supervisor\.log_level = "info" +\(default\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^supervisor\.checkers = \["claude"\] +\(default\)$/));
    // A credential is masked in the human-readable listing.
    expect(r.stdout).not.toContain('abcdefghijklmnop');
    expect(lines).toContainEqual(expect.stringMatching(/^observer\.token = "\*\*\*\*mnop" +\(global: /));
    // The source column is aligned.
    const valueLines = lines.filter((l) => / = /.test(l));
    expect(new Set(valueLines.map((l) => l.indexOf('   ('))).size).toBe(1);
  });

  it('says what the reviewer may run in this project and why: the detected tests with the file that made ccc detect them, rule commands, allow rules', async () => {
    t.write('work/project/package.json', JSON.stringify({ name: 'p', scripts: { test: 'node --test' } }));
    t.write('work/project/pnpm-lock.yaml', '');
    t.write('work/project/pytest.ini', '[pytest]\n');
    t.write(
      'work/project/.cccrc.json',
      JSON.stringify({
        supervisor: { checkers: [{ use: 'rule', commands: ['make lint'] }, 'claude'], reviewer: { allow: ['Bash(npm run e2e:*)'], require_evidence: true } },
      }),
    );
    const r = await ccc(['config']);
    expect(r.code, r.stderr).toBe(0);
    const section = r.stdout.slice(r.stdout.indexOf('# the reviewer'));
    expect(section.split('\n')).toEqual([
      '# the reviewer (claude checker) may read files and run, in this project:',
      expect.stringMatching(
        /^# {3}pnpm test +detected: package\.json has a test script; pnpm-lock\.yaml \(arguments node --test takes to select tests or report; e\.g\. pnpm test …, node --test …\)$/,
      ),
      expect.stringMatching(
        /^# {3}python3 -m pytest +detected: pytest\.ini \(pytest\) \(arguments pytest takes to select tests or report; e\.g\. python3 -m pytest …\)$/,
      ),
      expect.stringMatching(/^# {3}make lint +a rule checker runs it$/),
      expect.stringMatching(/^# {3}npm run e2e … +supervisor\.reviewer\.allow: Bash\(npm run e2e:\*\)$/),
      expect.stringContaining('#   read-only git (git status, diff, log, show, ls-files, grep'),
      '#   never: edits, writes, redirects into files, options that write or run other programs',
      '#   a complete verdict without a passing test run is not accepted (supervisor.reviewer.require_evidence)',
      '#   a complete verdict over a failing test run that no later run answered is not accepted',
      '',
    ]);
  });

  it("says that a reviewer model other than the agent's cannot read the agent's prompt cache", async () => {
    const plain = await ccc(['config']);
    expect(plain.stdout).not.toContain('prompt cache');
    t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { reviewer: { model: 'claude-haiku-4-5', allow: ['Bash(make check)'] } } }));
    const r = await ccc(['config']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^supervisor\.reviewer\.model = "claude-haiku-4-5" +\(project: /m);
    expect(r.stdout).toMatch(/^supervisor\.reviewer\.allow = \["Bash\(make check\)"\] +\(project: /m);
    expect(r.stdout).toContain(
      "# supervisor.reviewer.model = claude-haiku-4-5: a model other than the agent's cannot read the agent's prompt cache, so every review reads the whole conversation uncached.",
    );
  });

  it('shows the prompt file actually in use and why: ./SUPERVISOR.md beats supervisor.prompt_path', async () => {
    const global = t.write('home/.claude/SUPERVISOR.md', '# global rules');
    const onlyGlobal = await ccc(['config']);
    expect(onlyGlobal.stdout).toContain(`# prompt file: ${global} (supervisor.prompt_path; there is no ./SUPERVISOR.md in ${t.project})`);
    expect(onlyGlobal.stdout).toMatch(/^supervisor\.prompt_path = .* +\(default\)$/m);

    const local = t.write('work/project/SUPERVISOR.md', '# project rules');
    const r = await ccc(['config']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`# prompt file: ${local} (./SUPERVISOR.md in the project, which takes precedence over supervisor.prompt_path)`);
    expect(r.stdout).toMatch(new RegExp(`^supervisor\\.prompt_path = "${escape(global)}" +\\(default; not in use: ${escape(local)} is\\)$`, 'm'));
  });

  it('without any SUPERVISOR.md says so and how to get one', async () => {
    const r = await ccc(['config']);
    expect(r.stdout).toContain(
      `# prompt file: none: no SUPERVISOR.md in ${t.project} and none at ${path.join(t.home, '.claude', 'SUPERVISOR.md')}; \`ccc init\` writes one`,
    );
  });

  it('two project config files: exit 2 naming both', async () => {
    t.write('work/project/ccc.config.ts', 'export default {};\n');
    t.write('work/project/.cccrc.json', '{}');
    const r = await ccc(['config']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `ccc: Two project config files in ${t.project}: ccc.config.ts and .cccrc.json. ccc reads exactly one; merge them into one file and delete the other.\n`,
    );
  });

  it('--json prints the plain effective config; .supervisor.max_iterations is a number', async () => {
    const r = await ccc(['config', '--json'], { CCC_SUPERVISOR_MAX_ITERATIONS: '42' });
    expect(r.code).toBe(0);
    const config = JSON.parse(r.stdout);
    expect(config.supervisor.max_iterations).toBe(42);
    expect(typeof config.supervisor.max_iterations).toBe('number');
    expect(config.supervisor.prompt_path).toBe(path.join(t.home, '.claude', 'SUPERVISOR.md'));
    expect(Object.keys(config).sort()).toEqual([
      'claude',
      'kanban',
      'mcp',
      'notify',
      'observer',
      'plugins',
      'providers',
      'reporters',
      'settings',
      'supervisor',
      'trusted_dirs',
    ]);
  });

  it('an invalid value exits 2 with the key path, the value, what is allowed and the file', async () => {
    const file = t.write('work/project/ccc.config.ts', 'export default { supervisor: { max_iterations: -1 } };\n');
    const r = await ccc(['config']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`ccc: Invalid configuration: supervisor.max_iterations = -1 (from ${file}): must be an integer from 1 to 1000.\n`);
  });

  it('a bad env value exits 2 naming the variable', async () => {
    const r = await ccc(['config', '--json'], { CCC_SUPERVISOR_LOG_LEVEL: 'verbose' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CCC_SUPERVISOR_LOG_LEVEL="verbose": must be one of "debug", "info", "warn", "error"');
  });

  it('an unreadable config file exits 2 naming the file', async () => {
    const file = t.write('work/project/.cccrc.json', '{ "supervisor": { ');
    const r = await ccc(['config']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`ccc: Cannot read config file ${file}:`);
  });

  it('a binary config file is named as binary; what an error quotes of a file reaches the terminal inert (no NUL, no escape sequence)', async () => {
    const file = path.join(t.project, '.cccrc.json');
    t.write('work/project/.cccrc.json', '');
    fs.writeFileSync(file, Buffer.from([0x00, 0x01, 0x02, 0x7b, 0x22, 0x61, 0x00, 0x22, 0x3a, 0x31, 0x7d, 0xff, 0xfe]));
    const binary = await ccc(['config']);
    expect(binary.code).toBe(2);
    expect(binary.stderr).toBe(
      `ccc: Cannot read config file ${file}: it holds binary data (a NUL byte at offset 0), not the text of a config file.\nFix the file or remove it.\n`,
    );
    for (const [name, text] of [
      ['.cccrc.json', '{"a": "\u001b]0;TITLE\u0007\u009b31m\u0001", }'],
      ['.cccrc.yaml', 'a: [\u001b[31m\n  - b'],
    ] as const) {
      fs.rmSync(path.join(t.project, '.cccrc.json'), { force: true });
      fs.writeFileSync(path.join(t.project, name), text);
      const r = await ccc(['config']);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toContain(`ccc: Cannot read config file ${path.join(t.project, name)}`);
      expect(r.stderr, name).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      fs.rmSync(path.join(t.project, name));
    }
  });

  it('--config <path> reads that file; a missing one exits 2', async () => {
    const file = t.write('elsewhere/team.yaml', 'supervisor:\n  no_progress_limit: 5\n');
    const ok = await ccc(['config', '--config', file]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`supervisor\\.no_progress_limit = 5 +\\(project: ${escape(file)}\\)`));
    const missing = await ccc(['config', '--config', 'missing.ts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${path.join(t.project, 'missing.ts')} (given with --config) does not exist`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
