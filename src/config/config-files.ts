/**
 * Reading the two file layers: the global `<config dir>/ccc.json` and the project config found
 * by cosmiconfig. TypeScript files load through jiti, never through the TypeScript compiler API
 * (the compiler's JS API is gone in TypeScript 7; cosmiconfig's own TS loader needs it).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Loader } from 'cosmiconfig';
import { CccError, errorText, isCccError } from '../errors.js';
import { mayHoldProjectConfig, projectSearchPlaces } from './config-candidates.js';
import { loadConfigModule } from './load-guard.js';
import { isPlainObject } from './rules.js';
import { insideAny, realRoots } from '../file-bounds.js';
import { nonFileAt, readUserFileSync } from '../user-file.js';
import { kindOf } from '../value-text.js';

export interface LoadedFile {
  file: string;
  config: Record<string, unknown>;
}

export async function readGlobalFile(file: string): Promise<LoadedFile | undefined> {
  const read = readUserFileSync(file);
  if (!read.ok) {
    if (read.problem.kind === 'missing') return undefined;
    throw notAFile(file, read.problem);
  }
  const text = read.text;
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw unreadable(file, error);
  }
  return { file, config: asObject(parsed, file) };
}

/**
 * The nearest project config from `cwd` upwards to the filesystem root, or the explicit file.
 * Each directory is searched on its own (cosmiconfig's 'global' strategy would also read
 * `~/.config/ccc/…`, a location ccc does not document). cosmiconfig loads only when there is
 * something to find.
 */
export async function readProjectFile(options: {
  cwd: string;
  configPath?: string;
  moduleCacheDir?: () => string;
  /** `trusted_dirs` of the global file: where a project's config found by the search may resolve besides its own directory. */
  trusted?: readonly string[];
}): Promise<LoadedFile | undefined> {
  if (options.configPath === undefined && !mayHoldProjectConfig(options.cwd, projectSearchPlaces)) return undefined;
  // Required (CommonJS): an ESM import would scan it for export names first.
  const { cosmiconfig } = createRequire(import.meta.url)('cosmiconfig') as typeof import('cosmiconfig');
  // Files that run code while they load: each in a thread bounded in time and heap, named when it fails or ends ccc (load-guard.ts).
  const code: Loader = (filepath) => loadConfigModule(filepath, { cacheDir: options.moduleCacheDir?.() });
  const loaders: Record<string, Loader> = { '.ts': code, '.mts': code, '.cts': code, '.js': code, '.mjs': code, '.cjs': code };
  const explorer = cosmiconfig('ccc', { searchPlaces: projectSearchPlaces, searchStrategy: 'none', cache: false, loaders });
  try {
    if (options.configPath !== undefined) {
      const file = path.resolve(options.cwd, options.configPath);
      if (!fs.existsSync(file)) {
        throw new CccError('CONFIG_UNREADABLE', `Config file ${file} (given with --config) does not exist. Check the path.`, {
          data: { file },
        });
      }
      refuseNonFile(file);
      const result = await explorer.load(file);
      return { file, config: result === null || result.isEmpty ? {} : asObject(result.config, file) };
    }
    for (let dir = path.resolve(options.cwd); ; dir = path.dirname(dir)) {
      for (const name of projectSearchPlaces) refuseNonFile(path.join(dir, name));
      const result = await explorer.search(dir);
      if (result !== null) {
        refuseOutside(result.filepath, dir, options.trusted);
        refuseSecondFile(dir, result.filepath);
        return { file: result.filepath, config: asObject(result.config, result.filepath) };
      }
      if (path.dirname(dir) === dir) return undefined;
    }
  } catch (error) {
    if (isCccError(error)) throw error;
    const file = (error as { filepath?: unknown }).filepath;
    // A file found by the search that failed to parse: its excerpt is not shown when it is not the project's.
    if (typeof file === 'string' && options.configPath === undefined) refuseOutside(file, path.dirname(file), options.trusted);
    throw unreadable(typeof file === 'string' ? file : (options.configPath ?? options.cwd), error);
  }
}

/**
 * A project config found by the search must really be in the directory it was found in (or under
 * `trusted_dirs`): a symlink out of it (to a JSON file of credentials, to a private key) would put
 * that file's values, or a parse error's excerpt of it, on the terminal and into a CI log. A file
 * named with --config is read wherever it is.
 */
function refuseOutside(file: string, dir: string, trusted: readonly string[] = []): void {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return; // gone or dangling: reading it fails on its own, with its own message
  }
  if (insideAny(realRoots([dir, ...trusted]), real)) return;
  throw new CccError(
    'CONFIG_UNREADABLE',
    `The project config ${file} resolves to ${real}, outside ${dir}: ccc reads a project's config only from inside the project. ` +
      `Replace the link with the file, or, if you trust that place, add its directory to trusted_dirs in your global ccc.json.`,
    { data: { file, real } },
  );
}

/**
 * One project config per directory: with two (`ccc.config.ts` and `.cccrc.json`) one would be
 * ignored without a word. package.json counts only when it has a "ccc" key.
 */
function refuseSecondFile(dir: string, found: string): void {
  const others = projectSearchPlaces.map((name) => path.join(dir, name)).filter((file) => file !== found && isConfigFile(file));
  if (others.length === 0) return;
  const names = [found, ...others].map((file) => path.basename(file));
  throw new CccError(
    'CONFIG_INVALID',
    `Two project config files in ${dir}: ${names.join(' and ')}. ccc reads exactly one; merge them into one file and delete the other.`,
    {
      data: { files: [found, ...others] },
    },
  );
}

/**
 * A config file's name held by a directory, FIFO, socket or device is named as what it is before
 * cosmiconfig opens it: opening a FIFO would block ccc with no word.
 */
function refuseNonFile(file: string): void {
  const what = nonFileAt(file);
  if (what !== undefined) throw notAFile(file, { message: `${file} is ${what}, not a file` });
}

function notAFile(file: string, problem: { message: string }): CccError {
  return new CccError('CONFIG_UNREADABLE', `Cannot read config file ${file}: ${problem.message}.\nReplace it with a config file or remove it.`, {
    data: { file },
  });
}

function isConfigFile(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  if (path.basename(file) !== 'package.json') return true;
  try {
    const read = readUserFileSync(file);
    if (!read.ok) return false;
    const manifest: unknown = JSON.parse(read.text);
    return isPlainObject(manifest) && 'ccc' in manifest;
  } catch {
    return false;
  }
}

function asObject(value: unknown, file: string): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  throw new CccError('CONFIG_INVALID', `Invalid configuration in ${file}: the file must export an object, got ${kindOf(value, 'a non-plain object')}.`, {
    data: { file },
  });
}

function unreadable(file: string, error: unknown): CccError {
  const nul = nulOffset(file);
  const detail =
    nul === undefined
      ? errorText(error).replace(/^(JSON|YAML) Error in [^\n]*:\n/, '')
      : `it holds binary data (a NUL byte at offset ${nul}), not the text of a config file.`;
  return new CccError('CONFIG_UNREADABLE', `Cannot read config file ${file}: ${detail}\nFix the file or remove it.`, {
    data: { file },
    cause: error,
  });
}

/** Where the first NUL byte of the file's start is: a parser's excerpt of such a file is noise at best. */
function nulOffset(file: string): number | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(64 * 1024);
      const offset = head.subarray(0, fs.readSync(fd, head)).indexOf(0);
      return offset === -1 ? undefined : offset;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
