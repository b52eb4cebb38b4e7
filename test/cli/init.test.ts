/** `ccc init` through the built CLI (dist/cli/main.js): the files it writes and what it refuses. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/checkers/registry.js';
import { loadSupervisorPrompt } from '../../src/checkers/supervisor-prompt.js';
import { loadConfig } from '../../src/config/load.js';
import { cccBin, repoRoot } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

const ccc = (args: string[]) => runProcess(process.execPath, [cccBin, ...args], { cwd: t.project, env: t.env });
const read = (name: string) => fs.readFileSync(path.join(t.project, name), 'utf8');

describe('ccc init', () => {
  it('writes SUPERVISOR.md and a ccc.config.ts whose pipeline is rule (the detected test command) then claude', async () => {
    t.write('work/project/package.json', JSON.stringify({ name: 'p', scripts: { test: 'vitest run' } }));
    const r = await ccc(['init']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote SUPERVISOR.md and ccc.config.ts.');
    expect(r.stdout).toContain('runs `npm test` before the Claude review');

    const config = await runProcess(process.execPath, [cccBin, 'config', '--json'], { cwd: t.project, env: t.env });
    expect(config.code).toBe(0);
    const effective = JSON.parse(config.stdout) as { supervisor: Record<string, unknown> };
    expect(effective.supervisor.checkers).toEqual([{ use: 'rule', commands: ['npm test'] }, 'claude']);
    expect(effective.supervisor.no_progress_limit).toBe(3);

    const prompt = loadSupervisorPrompt({ cwd: t.project, promptPath: { path: '/nonexistent', fromProject: false }, home: t.home });
    expect(prompt.path).toBe(path.join(t.project, 'SUPERVISOR.md'));
    for (const idea of [
      /Restate the request/,
      /Verify with tools, not with words/,
      /git diff/,
      /A plan instead of action/,
      /A claim without evidence/,
      /how the agent can check its fix/,
    ]) {
      expect(prompt.text).toMatch(idea);
    }
    // It tells the reviewer the project's checks and why ccc found them.
    expect(prompt.text).toContain(
      '`npm test`: package.json has a test script (arguments vitest takes to select tests or report; e.g. npm test -- …, npx vitest …).',
    );
    // The verdict format is the last thing the reviewer reads about its answer.
    expect(prompt.text).toMatch(/\{"completed": false, "feedback": "[^"]+"\}/);
    expect(prompt.text.trimEnd()).toMatch(/\[TASK_COMPLETED\] on a line of its own when \(and only when\) the\nwork is complete\.$/);
  });

  it('without a test command, leaves the rule commented out and says so', async () => {
    const r = await ccc(['init']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No test command was found');
    expect(read('SUPERVISOR.md')).toContain('`ccc init` found no test command here: the review message lists what you may run.');
    expect(read('ccc.config.ts')).toContain("// { use: 'rule', commands: ['npm test'] },");
    const config = await runProcess(process.execPath, [cccBin, 'config', '--json'], { cwd: t.project, env: t.env });
    expect((JSON.parse(config.stdout) as { supervisor: { checkers: unknown } }).supervisor.checkers).toEqual(['claude']);
  });

  it("the template's bundled-plugin line, uncommented, builds the test gate in a project without ccc in node_modules", async () => {
    expect((await ccc(['init'])).code).toBe(0);
    const line = "// { use: 'ccc-supervisor/plugins/test-gate', command: 'npm test' },";
    expect(read('ccc.config.ts')).toContain(line);
    fs.writeFileSync(path.join(t.project, 'ccc.config.ts'), read('ccc.config.ts').replace(line, line.slice(3)));
    const { config } = await loadConfig({ cwd: t.project, env: t.env });
    const pipeline = await buildPipeline({ config, sources: {}, cwd: t.project });
    expect(pipeline.map((entry) => entry.checker.name)).toEqual(['claude', 'test-gate']);
    expect(fs.existsSync(path.join(t.project, 'node_modules'))).toBe(false);
  });

  it('with ccc-supervisor installed in the project, the written ccc.config.ts imports defineConfig and type-checks against it', async () => {
    t.write('work/project/go.mod', 'module example.com/x\n');
    fs.mkdirSync(path.join(t.project, 'node_modules'));
    fs.symlinkSync(repoRoot, path.join(t.project, 'node_modules', 'ccc-supervisor'));
    const r = await ccc(['init']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('not installed in this project');
    expect(read('ccc.config.ts')).toContain("import { defineConfig } from 'ccc-supervisor';\n\nexport default defineConfig({");
    expect(read('ccc.config.ts')).toContain("{ use: 'rule', commands: ['go test ./...'] },");
    await typeChecks();
    const config = await runProcess(process.execPath, [cccBin, 'config', '--json'], { cwd: t.project, env: t.env });
    expect(config.code).toBe(0);
  }, 120_000);

  it('with ccc installed only globally, ccc.config.ts imports nothing (an editor could not resolve it), says so, and loads the same', async () => {
    t.write('work/project/go.mod', 'module example.com/x\n');
    const r = await ccc(['init']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ccc-supervisor is not installed in this project, so ccc.config.ts exports a plain object (no import)');
    const text = read('ccc.config.ts');
    expect(text).not.toMatch(/^import /m);
    expect(text).not.toMatch(/^export default defineConfig/m);
    expect(text).toContain('export default {');
    const config = await runProcess(process.execPath, [cccBin, 'config', '--json'], { cwd: t.project, env: t.env });
    expect(config.code).toBe(0);
    expect((JSON.parse(config.stdout) as { supervisor: { checkers: unknown } }).supervisor.checkers).toEqual([
      { use: 'rule', commands: ['go test ./...'] },
      'claude',
    ]);
    await typeChecks({ withCcc: false });
  }, 120_000);

  /** `tsc` over the project's ccc.config.ts; without ccc, nothing maps its name (as in an editor where it is not installed). */
  async function typeChecks(options: { withCcc?: boolean } = {}) {
    t.write(
      'work/project/tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(repoRoot, 'node_modules/@types')],
          ...(options.withCcc === false ? {} : { paths: { 'ccc-supervisor': [path.join(repoRoot, 'src/index.ts')] } }),
        },
        files: ['ccc.config.ts'],
      }),
    );
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    // Not execFileSync: tsc on a loaded machine can hold this worker's event loop past vitest's 60 s RPC timeout.
    const checked = await runProcess(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: t.project, timeoutMs: 110_000 });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  }

  it('never overwrites: exit 2 naming the existing files and --force, and nothing is written', async () => {
    t.write('work/project/SUPERVISOR.md', 'my own rules\n');
    const r = await ccc(['init']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `ccc: SUPERVISOR.md already exists in ${t.project}. ccc init never overwrites files: run \`ccc init --force\` to replace it with the starter files.\n`,
    );
    expect(read('SUPERVISOR.md')).toBe('my own rules\n');
    expect(fs.existsSync(path.join(t.project, 'ccc.config.ts'))).toBe(false);

    const forced = await ccc(['init', '--force']);
    expect(forced.code).toBe(0);
    expect(read('SUPERVISOR.md')).toContain('# Supervisor: review the agent');
  });

  it('refuses when another ccc config file exists, because ccc.config.ts would take precedence over it', async () => {
    t.write('work/project/.cccrc.json', '{}');
    t.write('work/project/package.json', JSON.stringify({ name: 'p', ccc: { supervisor: {} } }));
    const r = await ccc(['init']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.cccrc.json, package.json (with a "ccc" key) already exist');
    expect(fs.readdirSync(t.project).sort()).toEqual(['.cccrc.json', 'package.json']);
  });
});
