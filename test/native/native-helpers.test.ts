/**
 * How ccc gets its native helpers without an install script, with the real C compiler and a
 * package copy that has only what an installed package has (package.json, native/, maybe
 * dist/prebuilt/): prebuilt when the prebuilt runs here, compiled on first use otherwise, kept
 * per version under the config directory, and the fallback said once with its fix.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { HELPERS, probeHelper } from '../../src/native/helper-build.js';
import { helperCacheDir, helperCacheKey, platformName } from '../../src/native/helper-key.js';
import { locateHelpers, type LocateOptions } from '../../src/native/native-helpers.js';
import { repoRoot } from '../support/claude-env.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An installed package's files (no dist/relay) in `<tmp>/package`, and a config dir `<tmp>/config`. */
function installedPackage(options: { prebuilt?: 'working' | 'broken' } = {}) {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-native-')));
  const root = path.join(dir, 'package');
  fs.mkdirSync(path.join(root, 'native'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(root, 'package.json'));
  for (const file of ['relay.c', 'byte-path-rules.h', 'lifeline.c']) fs.copyFileSync(path.join(repoRoot, 'native', file), path.join(root, 'native', file));
  const prebuilt = path.join(root, 'dist', 'prebuilt', platformName());
  if (options.prebuilt) fs.mkdirSync(prebuilt, { recursive: true });
  for (const name of options.prebuilt ? HELPERS : []) {
    if (options.prebuilt === 'working') fs.copyFileSync(path.join(repoRoot, 'dist', 'relay', name), path.join(prebuilt, name));
    // What a binary linked against a newer glibc does on an older one.
    else fs.writeFileSync(path.join(prebuilt, name), `#!/bin/sh\necho "${name}: version \\\`GLIBC_2.99' not found" >&2\nexit 127\n`, { mode: 0o755 });
  }
  const said: string[] = [];
  const options_: LocateOptions = { env: { PATH: process.env.PATH }, cwd: dir, configDir: path.join(dir, 'config'), root, say: (line) => said.push(line) };
  return { root, said, options: options_, cache: () => helperCacheDir(path.join(dir, 'config'), helperCacheKey(root)) };
}

const noCompiler = { PATH: process.env.PATH, CC: '/nonexistent/cc' };

describe('native helpers without an install script', () => {
  it('compiles both on first use into <config dir>/ccc/native/<key>/, says so in one line, then finds them there', () => {
    const pkg = installedPackage();
    const first = locateHelpers(pkg.options);
    expect(first).toEqual(HELPERS.map((name) => ({ name, path: path.join(pkg.cache(), name), origin: 'compiled' })));
    expect(pkg.said).toEqual([
      expect.stringMatching(
        /^ccc: built ccc-relay and ccc-lifeline for ccc \d+\.\d+\.\d+ on [a-z0-9]+-[a-z0-9]+ in \d+\.\d s \(kept in .*\/config\/ccc\/native\/\d+\.\d+\.\d+-[a-z0-9]+-[a-z0-9]+-[0-9a-f]{16}\)$/,
      ),
    ]);
    expect(fs.readdirSync(pkg.cache()).sort()).toEqual(['SHA256SUMS', 'ccc-lifeline', 'ccc-relay']); // no temporary left
    const again = locateHelpers({ ...pkg.options, env: noCompiler });
    expect(again.map((s) => s.origin)).toEqual(['cache', 'cache']);
    expect(pkg.said).toHaveLength(1);
  });

  it('takes the prebuilt binaries when they run here, without compiling', () => {
    const pkg = installedPackage({ prebuilt: 'working' });
    const states = locateHelpers({ ...pkg.options, env: noCompiler });
    expect(states).toEqual(HELPERS.map((name) => ({ name, path: path.join(pkg.cache(), name), origin: 'prebuilt' })));
    expect(pkg.said).toEqual([]);
  });

  it('compiles when the prebuilt binaries do not run here', () => {
    const pkg = installedPackage({ prebuilt: 'broken' });
    expect(locateHelpers(pkg.options).map((s) => s.origin)).toEqual(['compiled', 'compiled']);
  });

  it('without a prebuilt that runs and without a compiler: missing, the fallback and its fix said once, built once a compiler is there', () => {
    const pkg = installedPackage({ prebuilt: 'broken' });
    const missing = locateHelpers({ ...pkg.options, env: noCompiler });
    expect(missing.map((s) => s.origin)).toEqual(['missing', 'missing']);
    expect(missing[0]!.reason).toMatch(
      /ccc-relay does not run here \(ccc-relay: version `GLIBC_2\.99' not found\), and there is no C compiler to build it \(\/nonexistent\/cc: not found\)/,
    );
    expect(pkg.said).toEqual([
      expect.stringMatching(
        /^ccc: no ccc-relay or ccc-lifeline \(.*\), so interactive sessions run on ccc's slower Node proxy, and what ccc starts .* keeps running when ccc is killed with kill -9\. To fix: install a C compiler .* and run `ccc doctor`, which builds them\./,
      ),
    ]);
    expect(locateHelpers({ ...pkg.options, env: noCompiler }).map((s) => s.origin)).toEqual(['missing', 'missing']);
    expect(pkg.said).toHaveLength(1);
    expect(locateHelpers({ ...pkg.options, env: noCompiler, retry: true }).map((s) => s.origin)).toEqual(['missing', 'missing']);
    expect(pkg.said).toHaveLength(1); // tried again, same reason: not said again
    expect(locateHelpers(pkg.options).map((s) => s.origin)).toEqual(['compiled', 'compiled']);
    expect(fs.readdirSync(pkg.cache()).sort()).toEqual(['SHA256SUMS', 'ccc-lifeline', 'ccc-relay']);
  });

  it('a cached helper that no longer matches what ccc built (truncated) is set up again before use, said once', () => {
    const pkg = installedPackage({ prebuilt: 'working' });
    locateHelpers(pkg.options);
    for (const name of HELPERS) fs.truncateSync(path.join(pkg.cache(), name), 512);
    const repaired = locateHelpers({ ...pkg.options, env: noCompiler });
    expect(repaired.map((s) => [s.origin, s.replaced])).toEqual(HELPERS.map(() => ['prebuilt', expect.stringMatching(/does not match what ccc built/)]));
    expect(pkg.said).toEqual([
      expect.stringMatching(
        /^ccc: ccc-relay and ccc-lifeline in .*\/config\/ccc\/native\/\S+ did not match what ccc built \(damaged or changed since\), so ccc set them up again \(the prebuilt copy\)$/,
      ),
    ]);
    for (const name of HELPERS) expect(probeHelper(path.join(pkg.cache(), name), name)).toEqual({ ok: true });
    expect(locateHelpers({ ...pkg.options, env: noCompiler }).map((s) => s.origin)).toEqual(['cache', 'cache']);
    expect(pkg.said).toHaveLength(1);
  });

  it('a damaged cached helper with nothing to set it up from again is missing, naming the damage', () => {
    const pkg = installedPackage();
    locateHelpers(pkg.options);
    fs.writeFileSync(path.join(pkg.cache(), 'ccc-lifeline'), '#!/bin/sh\nexit 0\n'); // runs, but is not what ccc built
    const states = locateHelpers({ ...pkg.options, env: noCompiler });
    expect(states.map((s) => s.origin)).toEqual(['cache', 'missing']);
    expect(states[1]!.reason).toMatch(/ccc-lifeline does not match what ccc built .*; none is prebuilt .*, and there is no C compiler to build it/);
  });

  it("a checkout's dist/relay binary that no longer matches its build record is not run", () => {
    const pkg = installedPackage();
    const built = path.join(pkg.root, 'dist', 'relay');
    fs.cpSync(path.join(repoRoot, 'dist', 'relay'), built, { recursive: true });
    fs.truncateSync(path.join(built, 'ccc-relay'), 512);
    const states = locateHelpers(pkg.options);
    expect(states.map((s) => [s.name, s.origin])).toEqual([
      ['ccc-relay', 'compiled'],
      ['ccc-lifeline', 'package'],
    ]);
  });

  it('another version of the sources gets its own directory', () => {
    const pkg = installedPackage({ prebuilt: 'working' });
    locateHelpers(pkg.options);
    const before = pkg.cache();
    fs.appendFileSync(path.join(pkg.root, 'native', 'lifeline.c'), '\n/* changed */\n');
    expect(pkg.cache()).not.toBe(before);
    const states = locateHelpers(pkg.options);
    expect(states.map((s) => s.path)).toEqual(HELPERS.map((name) => path.join(pkg.cache(), name)));
  });

  it('a checkout uses its own dist/relay and writes nothing under the config dir', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-native-'));
    const states = locateHelpers({ env: noCompiler, cwd: dir, configDir: path.join(dir, 'config'), say: () => {} });
    expect(states).toEqual(HELPERS.map((name) => ({ name, path: path.join(repoRoot, 'dist', 'relay', name), origin: 'package' })));
    expect(fs.existsSync(path.join(dir, 'config'))).toBe(false);
  });

  it('two ccc setting up at once each end with working helpers, and no temporary file is left', async () => {
    const pkg = installedPackage();
    const script = `import { locateHelpers } from ${JSON.stringify(path.join(repoRoot, 'dist', 'native', 'native-helpers.js'))};
      const states = locateHelpers({ env: process.env, cwd: process.cwd(), configDir: ${JSON.stringify(pkg.options.configDir)}, root: ${JSON.stringify(pkg.root)} });
      console.log(JSON.stringify(states.map((s) => s.origin)));`;
    const run = () => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    const results = await Promise.all([run(), run(), run()]);
    for (const { stdout } of results) for (const origin of JSON.parse(stdout) as string[]) expect(['compiled', 'cache']).toContain(origin);
    expect(fs.readdirSync(pkg.cache()).sort()).toEqual(['SHA256SUMS', 'ccc-lifeline', 'ccc-relay']);
    for (const name of HELPERS) expect(probeHelper(path.join(pkg.cache(), name), name)).toEqual({ ok: true });
    expect(locateHelpers({ ...pkg.options, env: noCompiler }).map((s) => s.origin)).toEqual(['cache', 'cache']);
  });
});
