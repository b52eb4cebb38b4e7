/**
 * The repository's GitHub Action (`action.yml`, composite): parsed with the `yaml` package, its run
 * step executed here as the runner would (bash with `-eo pipefail`, the step's `env` with the
 * `${{ inputs.* }}` values filled in, `GITHUB_*` files in a temporary directory, `ccc` on PATH)
 * against the scripted model server with the real claude.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../support/fixtures.js';
import { parse } from 'yaml';
import { repoRoot, cccBin } from '../../support/claude-env.js';
import { runCcc, writeSupervisorPrompt } from '../../support/ccc-run.js';
import { runnerOutputs } from '../../support/github-runner.js';
import { junitSchemaErrors } from '../../support/junit-schemas.js';
import { startNpmRegistry } from '../../support/npm-registry.js';
import { runProcess } from '../../support/run-process.js';

interface Step {
  id?: string;
  name: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
  if?: string;
}

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(fs.readFileSync(path.join(repoRoot, 'action.yml'), 'utf8')) as Action;

/** The step's env as the runner evaluates it: only `${{ inputs.<name> }}` is used, anything else fails the test. */
function stepEnv(step: Step, given: Record<string, string>): Record<string, string> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, given[name] ?? spec.default ?? '']));
  return Object.fromEntries(
    Object.entries(step.env ?? {}).map(([key, expression]) => {
      const m = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(expression);
      if (!m || !(m[1]! in action.inputs)) throw new Error(`unexpected env expression ${key}: ${expression}`);
      return [key, inputs[m[1]!]!];
    }),
  );
}

describe('action.yml', () => {
  it('is a composite action whose scripts take inputs only from the environment and parse as bash', async () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs.task!.required).toBe(true);
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash');
      // An expression inside the script would be pasted into it as shell code.
      expect(step.run).not.toContain('${{');
      const syntax = await runProcess('bash', ['-n', '-c', step.run], { timeoutMs: 10_000 });
      expect(syntax.code, syntax.stderr).toBe(0);
    }
    const run = action.runs.steps.find((s) => s.id === 'run')!;
    for (const [name, output] of Object.entries(action.outputs)) expect(output.value).toBe(`\${{ steps.${run.id}.outputs.${name} }}`);
  });

  it('allows an install script to Claude Code alone: ccc and its dependencies have none', () => {
    const install = action.runs.steps.find((s) => /npm install -g "ccc-supervisor@/.test(s.run))!;
    const allowed = [...install.run.matchAll(/--allow-scripts[= ](\S+)/g)].map((m) => m[1]);
    expect(allowed).toEqual(['@anthropic-ai/claude-code']);
    expect(install.run).not.toMatch(/allowScripts|dangerously-allow-all-scripts/);
    for (const line of install.run.split('\n').filter((l) => l.includes('ccc-supervisor'))) expect(line).not.toContain('allow-scripts');
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(pkg.scripts[hook]).toBeUndefined();
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    expect(Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript && !p.dev)).toEqual([]);
  });

  describe('its install step', () => {
    const own = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    let dir: string | undefined;
    afterEach(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /**
     * Runs the install step as the runner would, with an `npm` that only records its calls (the
     * registry is the interface faked here): `registry` is what `npm view` knows. The real build
     * from the repository is what `npm run test:package` does.
     */
    async function install(registry: string[], given: Record<string, string> = {}) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-action-install-'));
      const bin = path.join(dir, 'bin');
      const runnerTemp = path.join(dir, 'runner-temp');
      fs.mkdirSync(bin);
      fs.mkdirSync(runnerTemp);
      const calls = path.join(dir, 'npm-calls');
      // Each call: its working directory, then its arguments, one line.
      fs.writeFileSync(
        path.join(bin, 'npm'),
        `#!/bin/sh
printf '%s %s\n' "$PWD" "$*" >> ${JSON.stringify(calls)}
case "$1" in
  view) case " ${registry.join(' ')} " in *" \${2#ccc-supervisor@} "*) echo "\${2#ccc-supervisor@}" ;; *) echo "npm error 404" >&2; exit 1 ;; esac ;;
  pack) touch "$5/ccc-supervisor-$(node -p 'require("./package.json").version').tgz" ;;
esac
`,
        { mode: 0o755 },
      );
      fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
      const step = action.runs.steps.find((s) => /npm install -g "ccc-supervisor@/.test(s.run))!;
      const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, GITHUB_ACTION_PATH: repoRoot, RUNNER_TEMP: runnerTemp, ...stepEnv(step, given) };
      const run = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: dir, env, timeoutMs: 60_000 });
      const lines = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [];
      return { run, runnerTemp, calls: lines.map((l) => l.split(' ')).map(([cwd, ...args]) => ({ cwd: cwd!, args: args.join(' ') })) };
    }

    it('installs the version from the registry when the registry has it', async () => {
      const { run, calls } = await install([own]);
      expect(run.code, run.stderr).toBe(0);
      expect(calls.map((c) => c.args)).toEqual([`view ccc-supervisor@${own} version`, `install -g ccc-supervisor@${own}`]);
    });

    it('builds and installs this repository when the registry has no such version, leaving the repository as it was', async () => {
      const { run, runnerTemp, calls } = await install([]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`ccc-supervisor@${own} is not on the npm registry: installing it from this action's repository`);
      const src = path.join(runnerTemp, 'ccc-supervisor-src');
      expect(calls).toEqual([
        { cwd: expect.any(String), args: `view ccc-supervisor@${own} version` },
        { cwd: src, args: 'ci --no-audit --no-fund' },
        { cwd: src, args: `pack --ignore-scripts --pack-destination ${runnerTemp}` },
        { cwd: expect.any(String), args: `install -g ${path.join(runnerTemp, `ccc-supervisor-${own}.tgz`)}` },
      ]);
      // A copy of the sources, without the repository's own dependencies or build.
      expect(fs.existsSync(path.join(src, 'package.json'))).toBe(true);
      expect(fs.existsSync(path.join(src, 'src', 'cli', 'main.ts'))).toBe(true);
      expect(fs.existsSync(path.join(src, 'node_modules'))).toBe(false);
      expect(fs.existsSync(path.join(src, 'dist'))).toBe(false);
    });

    it('refuses a ccc-version the registry lacks and this repository is not, naming both', async () => {
      const { run, calls } = await install([], { 'ccc-version': '9.9.9' });
      expect(run.code).toBe(2);
      expect(run.stdout).toContain(`::error::ccc-supervisor@9.9.9 is not on the npm registry, and this action's repository is version ${own}`);
      expect(calls.map((c) => c.args)).toEqual(['view ccc-supervisor@9.9.9 version']);
    });
  });

  it("installs Claude Code with the real npm and its install script allowed, also under npm 11's strict install-script policy", async () => {
    // claude's postinstall puts its native binary in place of a placeholder; npm 11 runs an
    // install script it was not told to allow with a warning, or refuses the install under
    // strict-allow-scripts; npm 10 runs it and takes the flag without complaint.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-action-npm-'));
    const own = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const registry = await startNpmRegistry(
      [
        { manifest: { name: 'ccc-supervisor', version: own, bin: { ccc: 'ccc.js' } }, files: { 'ccc.js': { text: '#!/usr/bin/env node\n' } } },
        {
          manifest: { name: '@anthropic-ai/claude-code', version: '9.0.0', bin: { claude: 'bin/claude.exe' }, scripts: { postinstall: 'node install.cjs' } },
          files: {
            'bin/claude.exe': { text: '#!/bin/sh\necho placeholder; exit 1\n', mode: 0o755 },
            'install.cjs': { text: `require('fs').writeFileSync(__dirname + '/bin/claude.exe', '#!/bin/sh\\necho native claude\\n', { mode: 0o755 });\n` },
          },
        },
      ],
      dir,
    );
    try {
      const prefix = path.join(dir, 'prefix');
      fs.mkdirSync(path.join(prefix, 'lib'), { recursive: true });
      const step = action.runs.steps.find((s) => /npm install -g "ccc-supervisor@/.test(s.run))!;
      const npmDir = path.dirname((await runProcess('bash', ['-c', 'command -v npm'])).stdout.trim());
      const env = {
        // Nothing but npm and node: no claude on PATH, so the step installs it.
        PATH: `${path.join(prefix, 'bin')}:${npmDir}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: dir,
        GITHUB_ACTION_PATH: repoRoot,
        RUNNER_TEMP: dir,
        npm_config_registry: registry.url,
        npm_config_prefix: prefix,
        npm_config_cache: path.join(dir, 'npm-cache'),
        npm_config_userconfig: path.join(dir, 'npmrc'),
        npm_config_strict_allow_scripts: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        ...stepEnv(step, {}),
      };
      const run = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: dir, env, timeoutMs: 120_000 });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const claude = await runProcess(path.join(prefix, 'bin', 'claude'), []);
      expect(claude.stdout).toBe('native claude\n');
      expect(fs.existsSync(path.join(prefix, 'bin', 'ccc'))).toBe(true);
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('its run step runs ccc with the inputs and passes the outputs through', async ({ rig }) => {
    const server = await rig.server((r) =>
      r.kind === 'review'
        ? { verdict: r.index === 0 ? { completed: false, feedback: 'add a test\nfor the edge case' } : { completed: true, feedback: 'done' } }
        : { text: `answer ${r.index}` },
    );
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    const bin = path.join(world.root, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'ccc'), `#!/bin/sh\nexec "${process.execPath}" "${cccBin}" "$@"\n`, { mode: 0o755 });
    const runnerTemp = path.join(world.root, 'runner-temp');
    fs.mkdirSync(runnerTemp);
    const files = { GITHUB_OUTPUT: path.join(runnerTemp, 'output'), GITHUB_STEP_SUMMARY: path.join(runnerTemp, 'summary') };
    for (const file of Object.values(files)) fs.writeFileSync(file, '');

    const task = `Fix "parse()" in it's module; don't run $(touch pwned) or \`touch pwned\`\nsecond line`;
    const step = action.runs.steps.find((s) => s.id === 'run')!;
    const script = path.join(runnerTemp, 'step.sh');
    fs.writeFileSync(script, step.run);
    const env = {
      ...world.env,
      PATH: `${bin}:${world.env.PATH}`,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: world.cwd,
      GITHUB_ACTION_PATH: repoRoot,
      RUNNER_TEMP: runnerTemp,
      ...files,
      ...stepEnv(step, {
        task,
        checkers: ' claude ,',
        'max-iterations': '3',
        'claude-args': '--model\nclaude-sonnet-4-5\n',
        'junit-file': 'reports/junit.xml',
      }),
    };
    const run = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: world.cwd, env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);

    const agent = server.byKind('agent');
    expect(agent[0]!.lastUserText).toContain(task);
    expect(agent.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5']);
    expect(fs.existsSync(path.join(world.cwd, 'pwned'))).toBe(false);

    const outputs = runnerOutputs(fs.readFileSync(files.GITHUB_OUTPUT, 'utf8'));
    for (const name of Object.keys(action.outputs)) expect(outputs, name).toHaveProperty(name);
    expect(outputs).toMatchObject({
      completed: 'true',
      exit_code: '0',
      outcome: 'completed',
      reviews: '2',
      feedback: 'done',
      events_file: path.join(world.cwd, 'ccc-events.jsonl'),
    });
    // The scripted reviewer ran no command: a completion on its word alone, said as unverified.
    expect(fs.readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')).toContain('### ⚠️ ccc: completed, unverified');
    expect(await junitSchemaErrors(fs.readFileSync(path.join(world.cwd, 'reports', 'junit.xml'), 'utf8'))).toEqual({ jenkins: [], ant: [] });

    // The event log is the --json stream: ccc report reads it back.
    const report = await runCcc(world, ['report', '--format', 'json', outputs.events_file!]);
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout).runs[0]).toMatchObject({ task, outcome: 'completed', exit_code: 0, reviews: 2, session_id: outputs.session_id });
  });
});
