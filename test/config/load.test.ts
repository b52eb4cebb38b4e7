/** loadConfig against real files on disk: layering, sources, file formats, TypeScript via jiti, errors. */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultConfig } from '../../src/config/defaults.js';
import { loadConfig } from '../../src/config/load.js';
import { validateConfig } from '../../src/config/validate.js';
import { repoRoot } from '../support/claude-env.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

async function rejection(promise: Promise<unknown>): Promise<{ code: string; exitCode: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; exitCode: number; message: string };
  }
  throw new Error('expected loadConfig to fail');
}

describe('layering', () => {
  it('uses the documented defaults (docs/configuration.md) when nothing is configured', async () => {
    const r = await loadConfig({ cwd: t.project, env: t.env });
    expect(r.config.supervisor).toEqual({
      max_iterations: 20,
      timeout_seconds: 600,
      log_level: 'info',
      prompt_path: path.join(t.home, '.claude', 'SUPERVISOR.md'),
      completion_marker: '[TASK_COMPLETED]',
      checkers: ['claude'],
      no_progress_limit: 3,
      wind_down: true,
      limit_wait_minutes: 300,
      limit_retry_seconds: 60,
      plugin_max_memory_mb: 512,
      reviewer: { allow: [], require_evidence: false },
      agreement: 'all',
      codex: { command: 'codex', api_key_env: 'OPENAI_API_KEY', workspace: 'project', unsandboxed: false },
    });
    expect(r.config.observer).toEqual({ host: '127.0.0.1', port: 0, allow_input: false, scrollback_bytes: 1048576, max_observers: 32, allowed_hosts: [] });
    expect(r.config.claude).toEqual({ command: 'claude', args: [] });
    expect(r.configDir).toBe(t.claudeDir);
    expect(r.files).toEqual({});
    expect(r.sources['supervisor.max_iterations']).toBe('default');
    expect(r.sources['providers']).toBe('default');
  });

  it('global ccc.json < project config < env < flags, and sources name the winner of each leaf', async () => {
    const globalFile = t.write(
      'home/.claude/ccc.json',
      JSON.stringify({
        supervisor: { max_iterations: 5, timeout_seconds: 100, log_level: 'warn', completion_marker: 'G' },
        providers: { glm: { env: { ANTHROPIC_BASE_URL: 'https://glm' } } },
      }),
    );
    const projectFile = t.write(
      'work/project/.cccrc.json',
      JSON.stringify({
        supervisor: { max_iterations: 6, timeout_seconds: 200, checkers: ['rule', { use: 'hook', command: 'x' }] },
        providers: { glm: { env: { ANTHROPIC_AUTH_TOKEN: 'tok' } } },
      }),
    );
    const r = await loadConfig({
      cwd: t.project,
      env: { ...t.env, CCC_SUPERVISOR_MAX_ITERATIONS: '7', CCC_SUPERVISOR_TIMEOUT_SECONDS: '300' },
      flags: { supervisor: { max_iterations: 8, log_level: undefined } },
    });
    expect(r.files).toEqual({ global: globalFile, project: projectFile });
    expect(r.config.supervisor.max_iterations).toBe(8);
    expect(r.sources['supervisor.max_iterations']).toBe('flag');
    expect(r.config.supervisor.timeout_seconds).toBe(300);
    expect(r.sources['supervisor.timeout_seconds']).toBe('env');
    expect(r.config.supervisor.checkers).toEqual(['rule', { use: 'hook', command: 'x' }]);
    expect(r.sources['supervisor.checkers']).toBe('project');
    expect(r.config.supervisor.log_level).toBe('warn');
    expect(r.sources['supervisor.log_level']).toBe('global');
    expect(r.config.supervisor.completion_marker).toBe('G');
    expect(r.config.supervisor.no_progress_limit).toBe(3);
    expect(r.sources['supervisor.no_progress_limit']).toBe('default');
    // Objects merge deeply across layers; each leaf keeps its own source.
    expect(r.config.providers.glm!.env).toEqual({ ANTHROPIC_BASE_URL: 'https://glm', ANTHROPIC_AUTH_TOKEN: 'tok' });
    expect(r.sources['providers.glm.env.ANTHROPIC_BASE_URL']).toBe('global');
    expect(r.sources['providers.glm.env.ANTHROPIC_AUTH_TOKEN']).toBe('project');
  });

  it('002: env CCC_SUPERVISOR_MAX_ITERATIONS=30 beats max_iterations 20 in ccc.json', async () => {
    t.write('home/.claude/ccc.json', JSON.stringify({ supervisor: { max_iterations: 20 } }));
    const r = await loadConfig({ cwd: t.project, env: { ...t.env, CCC_SUPERVISOR_MAX_ITERATIONS: '30' } });
    expect(r.config.supervisor.max_iterations).toBe(30);
  });

  it('arrays replace, they do not concatenate', async () => {
    t.write('home/.claude/ccc.json', JSON.stringify({ claude: { args: ['--a', '--b'] }, plugins: ['x'] }));
    t.write('work/project/.cccrc.json', JSON.stringify({ claude: { args: ['--c'] } }));
    const r = await loadConfig({ cwd: t.project, env: t.env });
    expect(r.config.claude.args).toEqual(['--c']);
    expect(r.config.plugins).toEqual(['x']);
    expect(r.sources['plugins']).toBe('global');
  });

  it('a higher layer can clear an optional value with null', async () => {
    t.write('home/.claude/ccc.json', JSON.stringify({ supervisor: { max_cost_usd: 2.5 }, observer: { token: 'secret-token' } }));
    t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { max_cost_usd: null } }));
    const r = await loadConfig({ cwd: t.project, env: t.env });
    expect(r.config.supervisor.max_cost_usd).toBeUndefined();
    expect('max_cost_usd' in r.config.supervisor).toBe(false);
    expect(r.config.observer.token).toBe('secret-token');
  });

  it('CCC_CONFIG_DIR moves the global file, and ~ in prompt_path expands to $HOME', async () => {
    const other = path.join(t.root, 'elsewhere');
    t.write('elsewhere/ccc.json', JSON.stringify({ supervisor: { prompt_path: '~/prompts/S.md' } }));
    const r = await loadConfig({ cwd: t.project, env: { ...t.env, CCC_CONFIG_DIR: other } });
    expect(r.configDir).toBe(other);
    expect(r.files.global).toBe(path.join(other, 'ccc.json'));
    expect(r.config.supervisor.prompt_path).toBe(path.join(t.home, 'prompts', 'S.md'));
  });

  it('env overrides cover the claude command, cost cap, prompt path and observer token', async () => {
    const r = await loadConfig({
      cwd: t.project,
      env: {
        ...t.env,
        CCC_CLAUDE: '/opt/claude',
        CCC_SUPERVISOR_MAX_COST_USD: '1.5',
        CCC_SUPERVISOR_PROMPT_PATH: '/p/S.md',
        CCC_OBSERVER_TOKEN: 'tok',
        CCC_SUPERVISOR_LOG_LEVEL: 'DEBUG',
      },
    });
    expect(r.config.claude.command).toBe('/opt/claude');
    expect(r.config.supervisor.max_cost_usd).toBe(1.5);
    expect(r.config.supervisor.prompt_path).toBe('/p/S.md');
    expect(r.config.observer.token).toBe('tok');
    expect(r.config.supervisor.log_level).toBe('debug');
    expect(r.sources['claude.command']).toBe('env');
  });
});

describe('project config files', () => {
  it('finds the nearest config searching from cwd upwards', async () => {
    const file = t.write('work/.cccrc.yaml', 'supervisor:\n  max_iterations: 11\n');
    const deep = path.join(t.project, 'a', 'b');
    t.write('work/project/a/b/.keep', '');
    const r = await loadConfig({ cwd: deep, env: t.env });
    expect(r.files.project).toBe(file);
    expect(r.config.supervisor.max_iterations).toBe(11);
  });

  it('reads package.json#ccc and skips a package.json without it', async () => {
    t.write('work/project/package.json', JSON.stringify({ name: 'p' }));
    const file = t.write('work/package.json', JSON.stringify({ name: 'w', ccc: { kanban: { max_retries: 9 } } }));
    const r = await loadConfig({ cwd: t.project, env: t.env });
    expect(r.files.project).toBe(file);
    expect(r.config.kanban.max_retries).toBe(9);
  });

  it('loads ccc.config.ts with TypeScript syntax through jiti (no TypeScript compiler API)', async () => {
    const file = t.write(
      'work/project/ccc.config.ts',
      [
        "import type { UserConfig } from 'ccc-supervisor';",
        'interface Local { n: number }',
        'const local: Local = { n: 12 };',
        'enum Level { Debug = "debug" }',
        'const config: UserConfig = { supervisor: { max_iterations: local.n as number, log_level: Level.Debug } };',
        'export default config;',
      ].join('\n'),
    );
    const r = await loadConfig({ cwd: t.project, env: t.env });
    expect(r.files.project).toBe(file);
    expect(r.config.supervisor.max_iterations).toBe(12);
    expect(r.config.supervisor.log_level).toBe('debug');
  });

  it('loads a ccc.config.ts that imports defineConfig from the package source by path, and from "ccc-supervisor"', async () => {
    const src = path.join(repoRoot, 'src', 'index.js');
    t.write('work/project/ccc.config.ts', `import { defineConfig } from ${JSON.stringify(src)};\nexport default defineConfig({ observer: { port: 4711 } });\n`);
    expect((await loadConfig({ cwd: t.project, env: t.env })).config.observer.port).toBe(4711);

    t.write(
      'work/other/ccc.config.mts',
      "import { defineConfig } from 'ccc-supervisor';\nexport default defineConfig({ observer: { port: 4712 } as const });\n",
    );
    expect((await loadConfig({ cwd: path.join(t.root, 'work', 'other'), env: t.env })).config.observer.port).toBe(4712);
  });

  it('loads an ESM ccc.config.mjs', async () => {
    t.write('work/project/ccc.config.mjs', 'export default { mcp: { http_port: 9999 } };\n');
    expect((await loadConfig({ cwd: t.project, env: t.env })).config.mcp.http_port).toBe(9999);
  });

  it('two project config files in one directory are an error naming both (exit 2), package.json only with a "ccc" key', async () => {
    t.write('work/project/ccc.config.mjs', 'export default {};\n');
    t.write('work/project/package.json', JSON.stringify({ name: 'p' }));
    await expect(loadConfig({ cwd: t.project, env: t.env })).resolves.toBeDefined();
    t.write('work/project/.cccrc.json', '{}');
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', exitCode: 2 });
    expect(error.message).toBe(
      `Two project config files in ${t.project}: ccc.config.mjs and .cccrc.json. ccc reads exactly one; merge them into one file and delete the other.`,
    );
    t.write('work/project/package.json', JSON.stringify({ name: 'p', ccc: {} }));
    expect((await rejection(loadConfig({ cwd: t.project, env: t.env }))).message).toContain('ccc.config.mjs and .cccrc.json and package.json');
  });

  it('--config names a file explicitly; a missing one is CONFIG_UNREADABLE (exit 2)', async () => {
    t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { max_iterations: 2 } }));
    const chosen = t.write('work/conf/mine.json', JSON.stringify({ supervisor: { max_iterations: 3 } }));
    const r = await loadConfig({ cwd: t.project, env: t.env, configPath: '../conf/mine.json' });
    expect(r.files.project).toBe(chosen);
    expect(r.config.supervisor.max_iterations).toBe(3);

    const error = await rejection(loadConfig({ cwd: t.project, env: t.env, configPath: 'nope.json' }));
    expect(error.code).toBe('CONFIG_UNREADABLE');
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(path.join(t.project, 'nope.json'));
  });
});

describe('errors', () => {
  it('an invalid value names key path, value, what is allowed and the file it came from', async () => {
    const file = t.write('work/project/ccc.config.ts', 'export default { supervisor: { max_iterations: -1 } };\n');
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`Invalid configuration: supervisor.max_iterations = -1 (from ${file}): must be an integer from 1 to 1000.`);
  });

  it("require_evidence takes true, false or 'whole-suite', and says so", async () => {
    t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { reviewer: { require_evidence: 'whole-suite' } } }));
    expect((await loadConfig({ cwd: t.project, env: t.env })).config.supervisor.reviewer.require_evidence).toBe('whole-suite');
    const file = t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { reviewer: { require_evidence: 'all' } } }));
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.message).toBe(`Invalid configuration: supervisor.reviewer.require_evidence = "all" (from ${file}): must be true, false or "whole-suite".`);
  });

  it('a reviewer permission rule that cannot be read names the rule and the syntax', async () => {
    const file = t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { reviewer: { allow: ['Bash(make check)', 'Edit(src/**)', 'rm -rf'] } } }));
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.code).toBe('CONFIG_INVALID');
    const lines = error.message.split('\n');
    expect(lines).toEqual([
      `Invalid configuration: supervisor.reviewer.allow[1] = "Edit(src/**)" (from ${file}): must be a permission rule: only Bash rules take a pattern; write Edit to allow the tool.`,
      `Invalid configuration: supervisor.reviewer.allow[2] = "rm -rf" (from ${file}): must be a permission rule: expected a tool name (Edit) or Bash(<command>) / Bash(<command>:*).`,
    ]);
  });

  it('reports every problem, naming the layer of each', async () => {
    const globalFile = t.write('home/.claude/ccc.json', JSON.stringify({ observer: { port: 70000 } }));
    const error = await rejection(
      loadConfig({
        cwd: t.project,
        env: t.env,
        flags: { supervisor: { log_level: 'loud' as never, checkers: ['claude', { nope: 1 } as never] } },
      }),
    );
    const lines = error.message.split('\n');
    expect(lines).toContain('Invalid configuration: supervisor.log_level = "loud" (from command-line flag): must be one of "debug", "info", "warn", "error".');
    expect(lines).toContain(`Invalid configuration: observer.port = 70000 (from ${globalFile}): must be an integer from 0 to 65535.`);
    expect(lines.some((l) => l.startsWith('Invalid configuration: supervisor.checkers[1] = {"nope":1} (from command-line flag)'))).toBe(true);
  });

  it('an unknown key is an error with a suggestion; providers, settings and checker options stay open', async () => {
    const file = t.write(
      'home/.claude/ccc.json',
      JSON.stringify({
        supervisor: { max_iteration: 3, checkers: [{ use: 'rule', commands: ['npm test'], anything: true }] },
        settings: { whatever: { deep: 1 } },
        providers: { x: { env: { A: 'b' }, note: 'free' } },
      }),
    );
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.message).toBe(
      `Invalid configuration: unknown key supervisor.max_iteration (from ${file}). Did you mean supervisor.max_iterations? ` +
        'Known keys of supervisor: max_iterations, timeout_seconds, log_level, prompt_path, completion_marker, checkers, no_progress_limit, max_cost_usd, max_task_cost_usd, wind_down, limit_wait_minutes, limit_retry_seconds, plugin_max_memory_mb, reviewer, agreement, codex.',
    );
  });

  it('a bad item of a list or of an env map is named by its own path', async () => {
    const file = t.write(
      'work/project/.cccrc.json',
      JSON.stringify({ claude: { args: ['--verbose', 5] }, providers: { x: { env: { A: 1 } } }, supervisor: { checkers: [{ use: '' }] } }),
    );
    const lines = (await rejection(loadConfig({ cwd: t.project, env: t.env }))).message.split('\n');
    expect(lines).toEqual([
      `Invalid configuration: claude.args[1] = 5 (from ${file}): must be a string.`,
      `Invalid configuration: supervisor.checkers[0].use = "" (from ${file}): must be a non-empty string.`,
      `Invalid configuration: providers.x.env.A = 1 (from ${file}): must be a string.`,
    ]);
  });

  it('any JSON value for a key either validates to an allowed value or is one CONFIG_INVALID naming that key (fuzzed)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const merged = { ...defaultConfig(), supervisor: { ...defaultConfig().supervisor, max_iterations: value } };
        try {
          const config = validateConfig({ merged: merged, sources: {}, files: {} });
          return Number.isSafeInteger(config.supervisor.max_iterations) && config.supervisor.max_iterations >= 1 && config.supervisor.max_iterations <= 1000;
        } catch (error) {
          const e = error as { code?: string; message: string };
          return (
            e.code === 'CONFIG_INVALID' &&
            e.message.startsWith('Invalid configuration: supervisor.max_iterations = ') &&
            e.message.endsWith('must be an integer from 1 to 1000.')
          );
        }
      }),
    );
  });

  it('an unknown top-level key is an error', async () => {
    const file = t.write('work/project/.cccrc.json', JSON.stringify({ supervsior: { max_iterations: 3 } }));
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`unknown key supervsior (from ${file}). Did you mean supervisor?`);
  });

  it('a config file that does not parse is CONFIG_UNREADABLE naming the file and the parse error', async () => {
    const bad = t.write('work/project/ccc.config.ts', 'export default { supervisor: { max_iterations: \n');
    let error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.code).toBe('CONFIG_UNREADABLE');
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`Cannot read config file ${bad}`);

    t.cleanup();
    t = makeTempHome();
    const badJson = t.write('home/.claude/ccc.json', '{ "supervisor": ');
    error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.code).toBe('CONFIG_UNREADABLE');
    expect(error.message).toMatch(new RegExp(`^Cannot read config file ${badJson.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*JSON`));
  });

  it('a file that exports something other than an object is rejected', async () => {
    const file = t.write('work/project/.cccrc.json', '[1,2]');
    const error = await rejection(loadConfig({ cwd: t.project, env: t.env }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(file);
  });

  it('a bad env value is CONFIG_INVALID naming the variable, the value and what is allowed', async () => {
    const error = await rejection(loadConfig({ cwd: t.project, env: { ...t.env, CCC_SUPERVISOR_TIMEOUT_SECONDS: 'ten' } }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      'Invalid environment variable CCC_SUPERVISOR_TIMEOUT_SECONDS="ten": must be a number above 0 and at most 86400 (seconds: a day) (it sets supervisor.timeout_seconds). Fix or unset the variable.',
    );
  });
});
