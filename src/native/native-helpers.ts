/**
 * Where ccc finds its native helpers (`ccc-relay`, `ccc-lifeline`), however it was installed: no
 * install script has to run. In order:
 *
 * 1. `dist/relay/` of the package: built on this machine by `npm run build` (a checkout, or the
 *    `prepare` of a git install).
 * 2. `<config dir>/ccc/native/<key>/` (helper-key.ts): a helper set up by an earlier ccc.
 * 3. Set up now, into that directory: the binary prebuilt in the package for this platform
 *    (`dist/prebuilt/<platform>-<arch>/`) when it runs here, else compiled from the package's C
 *    sources with the system's compiler, which says so in one line.
 *
 * Without either, the fallback is said once (a marker in that directory) with the fix; it is
 * said again when the reason changes, and `ccc doctor` shows it always. A binary in 1. or 2. is
 * used only when it matches the hash recorded when it was put there (helper-record.ts); one that
 * does not is set up again as in 3., which says so once. The lookup runs once per process, before
 * the agent's spawn: when the helpers are in place it costs a few file checks and two hashes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfigDir } from '../config/config-dir.js';
import { findExecutable } from '../process/resolve-command.js';
import { compileHelper, compilerCommand, HELPERS, helperSources, probeHelper, type HelperName } from './helper-build.js';
import { helperCacheDir, helperCacheKey, packageRoot, packageVersion, platformName } from './helper-key.js';
import { readRecord, recordHelpers, recordMismatch } from './helper-record.js';
import { errorText } from '../errors.js';

/** package: dist/relay; cache: set up earlier; prebuilt / compiled: set up by this call. */
export type HelperOrigin = 'package' | 'cache' | 'prebuilt' | 'compiled' | 'missing';

export interface HelperState {
  name: HelperName;
  path?: string;
  origin: HelperOrigin;
  /** Why it is missing. */
  reason?: string;
  /** Set up again because the binary there did not match its record: why. */
  replaced?: string;
}

export interface LocateOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  configDir: string;
  /** The package to take binaries and sources from; this ccc's own by default. */
  root?: string;
  /** Try again after a failure that was already said (`ccc doctor`). */
  retry?: boolean;
  /** Where the one line about a build or the fallback goes; nowhere by default. */
  say?: (line: string) => void;
}

const found = new Map<string, string | undefined>();

/** The helper's path, or undefined (then the caller falls back). Once per process and config dir. */
export function findNativeHelper(name: HelperName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configDir = resolveConfigDir(env, process.cwd());
  if (!found.has(`${configDir}\0${name}`)) {
    const say = (line: string) => void process.stderr.write(`${line}\n`);
    for (const state of locateHelpers({ env, cwd: process.cwd(), configDir, say })) found.set(`${configDir}\0${state.name}`, state.path);
  }
  return found.get(`${configDir}\0${name}`);
}

export function locateHelpers(options: LocateOptions): HelperState[] {
  const root = options.root ?? packageRoot;
  const states = new Map<HelperName, HelperState>();
  const record = readRecord(path.join(root, 'dist', 'relay'));
  for (const name of HELPERS) {
    const built = path.join(root, 'dist', 'relay', name);
    if (isExecutable(built) && !recordMismatch(built, record)) states.set(name, { name, path: built, origin: 'package' });
  }
  const rest = HELPERS.filter((name) => !states.has(name));
  if (rest.length > 0) for (const state of fromCache(rest, root, options)) states.set(state.name, state);
  return HELPERS.map((name) => states.get(name)!);
}

function fromCache(names: HelperName[], root: string, options: LocateOptions): HelperState[] {
  let dir: string;
  try {
    dir = helperCacheDir(options.configDir, helperCacheKey(root));
  } catch (error) {
    return names.map((name) => ({ name, origin: 'missing', reason: `its C source is not in the package (${errorText(error)})` }));
  }
  const record = readRecord(dir);
  const damaged = new Map<HelperName, string>();
  const cached = names.filter((name) => {
    const file = path.join(dir, name);
    if (!isExecutable(file)) return false;
    const mismatch = recordMismatch(file, record);
    if (mismatch) damaged.set(name, mismatch);
    return !mismatch;
  });
  const absent = names.filter((name) => !cached.includes(name));
  const states: HelperState[] = cached.map((name) => ({ name, path: path.join(dir, name), origin: 'cache' }));
  return absent.length > 0 ? [...states, ...setUp(absent, dir, root, options, damaged)] : states;
}

interface Marker {
  reason: string;
  compiler: string | null;
}

/** Prebuilt or compiled into `dir`; says what it built (or replaced), or the fallback when it is new. */
function setUp(names: HelperName[], dir: string, root: string, options: LocateOptions, damaged: Map<HelperName, string>): HelperState[] {
  const compiler = process.platform === 'win32' ? undefined : findExecutable(compilerCommand(options.env), options.env, options.cwd);
  const markerFile = path.join(dir, 'unavailable.json');
  const marker = readMarker(markerFile);
  if (marker && !options.retry && marker.compiler === (compiler ?? null)) return names.map((name) => ({ name, origin: 'missing', reason: marker.reason }));
  const started = Date.now();
  let states: HelperState[];
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    states = names.map((name) => setUpOne(name, dir, root, compiler, options.env));
    recordHelpers(
      dir,
      states.filter((s) => s.path).map((s) => s.name),
    );
  } catch (error) {
    states = names.map((name) => ({ name, origin: 'missing', reason: `cannot write ${dir}: ${errorText(error)}` }));
  }
  states = states.map((s) => {
    const mismatch = damaged.get(s.name);
    if (!mismatch) return s;
    return s.path ? { ...s, replaced: mismatch } : { ...s, reason: `${mismatch}; ${s.reason}` };
  });
  const compiled = states.filter((s) => s.origin === 'compiled').map((s) => s.name);
  const replaced = states.filter((s) => s.replaced);
  if (replaced.length > 0) {
    options.say?.(
      `ccc: ${replaced.map((s) => s.name).join(' and ')} in ${dir} did not match what ccc built (damaged or changed since), so ccc set ${replaced.length > 1 ? 'them' : 'it'} up again (${[...new Set(replaced.map((s) => ORIGIN_SAID[s.origin]))].join(', ')})`,
    );
  } else if (compiled.length > 0) {
    options.say?.(
      `ccc: built ${compiled.join(' and ')} for ccc ${packageVersion(root)} on ${platformName()} in ${((Date.now() - started) / 1000).toFixed(1)} s (kept in ${dir})`,
    );
  }
  const lacking = states.filter((s) => s.origin === 'missing');
  if (lacking.length === 0) fs.rmSync(markerFile, { force: true });
  else {
    const reason = [...new Set(lacking.map((s) => s.reason))].join('; ');
    if (marker?.reason !== reason)
      options.say?.(
        fallbackMessage(
          lacking.map((s) => s.name),
          reason,
        ),
      );
    writeMarker(markerFile, { reason, compiler: compiler ?? null });
  }
  return states;
}

function setUpOne(name: HelperName, dir: string, root: string, compiler: string | undefined, env: NodeJS.ProcessEnv): HelperState {
  const target = path.join(dir, name);
  const prebuilt = path.join(root, 'dist', 'prebuilt', platformName(), name);
  let why = `none is prebuilt for ${platformName()}`;
  if (fs.existsSync(prebuilt)) {
    const probe = probeHelper(prebuilt, name);
    if (probe.ok) {
      installCopy(prebuilt, target);
      return { name, path: target, origin: 'prebuilt' };
    }
    why = probe.reason;
  }
  if (process.platform === 'win32') return { name, origin: 'missing', reason: 'Windows has no pty for it' };
  if (!compiler) return { name, origin: 'missing', reason: `${why}, and there is no C compiler to build it (${compilerCommand(env)}: not found)` };
  const built = compileHelper({ name, source: helperSources(path.join(root, 'native'), name)[0]!, target, compiler });
  return built.ok ? { name, path: target, origin: 'compiled' } : { name, origin: 'missing', reason: `${why}, and building it failed (${built.reason})` };
}

const ORIGIN_SAID: Partial<Record<HelperOrigin, string>> = { prebuilt: 'the prebuilt copy', compiled: 'compiled' };

export const INSTALL_COMPILER =
  'install a C compiler (Debian/Ubuntu: apt-get install gcc libc6-dev; Alpine: apk add build-base; macOS: xcode-select --install)';

/** What the user loses and how to get it back, in one line. */
export function fallbackMessage(names: HelperName[], reason: string): string {
  const losses = [
    ...(names.includes('ccc-relay') ? ["interactive sessions run on ccc's slower Node proxy"] : []),
    ...(names.includes('ccc-lifeline') ? ['what ccc starts (agent turns, the reviewer, commands) keeps running when ccc is killed with kill -9'] : []),
  ];
  return (
    `ccc: no ${names.join(' or ')} (${reason}), so ${losses.join(', and ')}. ` +
    `To fix: ${INSTALL_COMPILER} and run \`ccc doctor\`, which builds them. (Said once; \`ccc doctor\` shows it.)`
  );
}

function installCopy(from: string, target: string): void {
  const temporary = `${target}.${process.pid}.tmp`;
  fs.copyFileSync(from, temporary);
  fs.chmodSync(temporary, 0o755);
  fs.renameSync(temporary, target);
}

function readMarker(file: string): Marker | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

function writeMarker(file: string, marker: Marker): void {
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(marker));
    fs.renameSync(temporary, file);
  } catch {
    // Not said once then, but every time: better than not at all.
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
