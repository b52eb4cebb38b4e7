/**
 * A ccc.config.ts is transpiled by jiti once per content, into <config dir>/ccc/module-cache/
 * (Babel on every launch cost 200-500 ms before claude could start): an edit is read at
 * the next load, never a stale copy, and the cache is private like everything under ccc/. (jiti
 * names a cached file after the source's path and checks its content hash: no pile-up on edits.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/checkers/registry.js';
import { loadConfig } from '../../src/config/load.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

const writeConfig = (n: number) =>
  fs.writeFileSync(path.join(t.project, 'ccc.config.ts'), `const n: number = ${n};\nexport default { supervisor: { max_iterations: n } };\n`);

describe('TypeScript config transpile cache', () => {
  it('loads through the cache, reads an edit at once, and keeps the cache private', async () => {
    writeConfig(5);
    const first = await loadConfig({ cwd: t.project, env: t.env });
    expect(first.config.supervisor.max_iterations).toBe(5);
    const cache = path.join(first.configDir, 'ccc', 'module-cache');
    const cached = fs.readdirSync(cache);
    expect(cached.length).toBeGreaterThan(0);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);

    expect((await loadConfig({ cwd: t.project, env: t.env })).config.supervisor.max_iterations).toBe(5);
    writeConfig(7);
    expect((await loadConfig({ cwd: t.project, env: t.env })).config.supervisor.max_iterations).toBe(7);
  });

  it('a JSON config writes nothing under the config dir', async () => {
    fs.writeFileSync(path.join(t.project, '.cccrc.json'), JSON.stringify({ supervisor: { max_iterations: 4 } }));
    const r = await loadConfig({ cwd: t.project, env: t.env });
    expect(r.config.supervisor.max_iterations).toBe(4);
    expect(fs.existsSync(path.join(r.configDir, 'ccc'))).toBe(false);
  });
});

describe('TypeScript plugin transpile cache', () => {
  it('a TS plugin loads through the cache given to buildPipeline, and an edit is read at the next build', async () => {
    const cache = path.join(t.root, 'module-cache');
    const plugin = (feedback: string) =>
      fs.writeFileSync(
        path.join(t.project, 'gate.ts'),
        `import { defineChecker } from 'ccc-supervisor';\nconst feedback: string = ${JSON.stringify(feedback)};\nexport default defineChecker({ name: 'gate', check: () => ({ completed: false, feedback }) });\n`,
      );
    const build = async () => {
      const { config } = await loadConfig({ cwd: t.project, env: t.env, flags: { supervisor: { checkers: ['./gate.ts'] } } });
      const [entry] = await buildPipeline({ config, sources: {}, cwd: t.project, moduleCacheDir: () => (fs.mkdirSync(cache, { recursive: true }), cache) });
      return entry!.checker.check({} as never, new AbortController().signal);
    };
    plugin('first');
    expect(await build()).toEqual({ completed: false, feedback: 'first' });
    expect(fs.readdirSync(cache).length).toBeGreaterThan(0);
    plugin('second');
    expect(await build()).toEqual({ completed: false, feedback: 'second' });
  });
});
