/**
 * ccc's modules come from V8's code cache once warm: the first start writes it under the user's
 * cache directory, the next reads it back (Node's own debug lines say which entries it accepted),
 * and a cache that cannot be written changes nothing the user sees.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir } from '../../src/process/compile-cache.cjs';
import { repoRoot } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';

const CLI = path.join(repoRoot, 'dist/cli/main.js');

describe('where the compile cache goes', () => {
  it('follows CCC_COMPILE_CACHE, then XDG_CACHE_HOME, then HOME, and only to absolute places', () => {
    expect(compileCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/ccc/compile-cache');
    expect(compileCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/ccc/compile-cache');
    expect(compileCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: 'relative' })).toBe('/home/u/.cache/ccc/compile-cache');
    expect(compileCacheDir({ HOME: '/home/u', CCC_COMPILE_CACHE: '/c' })).toBe('/c');
    expect(compileCacheDir({ HOME: '/home/u', CCC_COMPILE_CACHE: 'off' })).toBeUndefined();
    expect(compileCacheDir({ HOME: '/home/u', CCC_COMPILE_CACHE: 'rel' })).toBeUndefined();
    expect(compileCacheDir({}, () => '/from/passwd')).toBe('/from/passwd/.cache/ccc/compile-cache');
    expect(
      compileCacheDir({}, () => {
        throw new Error('no home');
      }),
    ).toBeUndefined();
  });
});

describe('the compile cache of a real ccc start', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function home(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-compile-cache-'));
    made.push(dir);
    return dir;
  }
  function cccVersion(env: NodeJS.ProcessEnv) {
    return runProcess(process.execPath, [CLI, '--version'], {
      env: { PATH: process.env.PATH, HOME: env.HOME, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', CCC_CLAUDE: 'true', ...env },
    });
  }
  const accepted = (stderr: string) => stderr.split('\n').filter((line) => /\[compile cache\] cache for file:.*\/dist\/.* was accepted/.test(line));

  it('is written by the first start under ~/.cache/ccc and read by the next', async () => {
    const dir = home();
    const first = await cccVersion({ HOME: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(accepted(first.stderr)).toEqual([]);
    const cache = path.join(dir, '.cache', 'ccc', 'compile-cache');
    expect(fs.readdirSync(cache).flatMap((v) => fs.readdirSync(path.join(cache, v))).length).toBeGreaterThan(3);
    const second = await cccVersion({ HOME: dir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(accepted(second.stderr).length).toBeGreaterThan(3);
  });

  it('is not used with CCC_COMPILE_CACHE=off', async () => {
    const dir = home();
    const run = await cccVersion({ HOME: dir, CCC_COMPILE_CACHE: 'off' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('[compile cache]');
    expect(fs.existsSync(path.join(dir, '.cache'))).toBe(false);
  });

  it('that cannot be created (a file where its directory would be) changes nothing the user sees', async () => {
    const dir = home();
    fs.writeFileSync(path.join(dir, '.cache'), 'not a directory');
    const plain = await runProcess(process.execPath, [CLI, '--version'], { env: { PATH: process.env.PATH, HOME: dir, CCC_CLAUDE: 'true' } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toMatch(/ccc/);
  });
});
