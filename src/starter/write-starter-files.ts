/**
 * `ccc init`: writes the starter SUPERVISOR.md and ccc.config.ts into the project directory.
 * It never replaces a file without `force`, and it also refuses when the project already has
 * another ccc config file: a new ccc.config.ts would silently take precedence over it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectSearchPlaces } from '../config/config-candidates.js';
import { defaultConfig } from '../config/defaults.js';
import { CccError } from '../errors.js';
import { isSymlink } from '../file-bounds.js';
import { nonFileAt, readUserFileSync } from '../user-file.js';
import { configTemplate } from './config-template.js';
import { packageResolvesFrom } from './package-resolves.js';
import { supervisorTemplate } from './supervisor-template.js';
import { detectTestCommands } from '../init/test-command.js';

const SUPERVISOR_FILE = 'SUPERVISOR.md';
const CONFIG_FILE = 'ccc.config.ts';

export interface InitResult {
  /** Absolute paths, in the order written. */
  written: string[];
  /** The test command put into the rule checker, when one was found. */
  testCommand?: string;
  /** Whether ccc.config.ts imports defineConfig (ccc-supervisor resolves from the project). */
  importsCcc: boolean;
}

export interface StarterOptions {
  cwd: string;
  force: boolean;
  /** Whether a test command ends in a test runner ccc reads (the caller resolves it: checkers/reviewer/command-runners.ts). */
  runsTests?: (command: string) => boolean;
}

export function writeStarterFiles(options: StarterOptions): InitResult {
  refuseNonFiles(options.cwd);
  const existing = conflictingFiles(options.cwd);
  if (existing.length > 0 && !options.force) {
    throw new CccError(
      'USAGE',
      `${existing.join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'} in ${options.cwd}. ccc init never overwrites files: run \`ccc init --force\` to replace ${existing.length === 1 ? 'it' : 'them'} with the starter files.`,
      { data: { existing } },
    );
  }
  const marker = defaultConfig().supervisor.completion_marker;
  const tests = detectTestCommands(options.cwd);
  const testCommand = tests[0]?.command;
  const importsCcc = packageResolvesFrom(options.cwd, 'ccc-supervisor');
  const files: Array<[string, string]> = [
    [SUPERVISOR_FILE, supervisorTemplate(marker, tests)],
    [
      CONFIG_FILE,
      configTemplate({
        testCommand,
        completionMarker: marker,
        importable: importsCcc,
        wholeSuite: testCommand !== undefined && options.runsTests?.(testCommand) === true,
      }),
    ],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const file = path.join(options.cwd, name);
    // --force replaces a symlink, never what it points at (a dotfile, or worse, outside the project).
    if (options.force && isSymlink(file)) fs.unlinkSync(file);
    // 'wx' fails if the file appeared since the check: even a race never overwrites without --force.
    fs.writeFileSync(file, text, { flag: options.force ? 'w' : 'wx' });
    written.push(file);
  }
  return { written, importsCcc, ...(testCommand ? { testCommand } : {}) };
}

/**
 * A directory, FIFO, socket or device where a starter file goes is named as what it is: it is not
 * an existing file to keep or replace, and writing to a FIFO would block. Even --force leaves it.
 */
function refuseNonFiles(cwd: string): void {
  for (const name of [SUPERVISOR_FILE, CONFIG_FILE]) {
    const file = path.join(cwd, name);
    const what = nonFileAt(file);
    if (what !== undefined) {
      throw new CccError('USAGE', `${file} is ${what}, not a file. Move it away, then run \`ccc init\` again.`, { data: { path: file, what } });
    }
  }
}

/** The files that stop a plain `ccc init`: the two it writes, and any other project config of ccc. */
function conflictingFiles(cwd: string): string[] {
  const found = [SUPERVISOR_FILE, CONFIG_FILE]
    .filter((name) => fs.existsSync(path.join(cwd, name)))
    .map((name) => (name === SUPERVISOR_FILE ? `${name}${supervisorNote(cwd)}` : name));
  for (const name of projectSearchPlaces) {
    if (name === CONFIG_FILE || !fs.existsSync(path.join(cwd, name))) continue;
    if (name === 'package.json' && !hasCccKey(path.join(cwd, name))) continue;
    found.push(name === 'package.json' ? 'package.json (with a "ccc" key)' : name);
  }
  return found;
}

/**
 * What a run would say of the SUPERVISOR.md that is there, when it cannot use it (supervisor-prompt.ts):
 * "exists" alone would read as "your instructions are in place".
 */
function supervisorNote(cwd: string): string {
  const read = readUserFileSync(path.join(cwd, SUPERVISOR_FILE), { within: [cwd] });
  if (read.ok) return read.text.trim() === '' ? ' (empty: a run cannot use it)' : '';
  if (read.problem.kind === 'outside')
    return ` (it resolves to ${read.problem.real}, outside the project: a run refuses it unless that place is in trusted_dirs)`;
  return '';
}

function hasCccKey(file: string): boolean {
  try {
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    return pkg.ccc !== undefined;
  } catch {
    return false;
  }
}
