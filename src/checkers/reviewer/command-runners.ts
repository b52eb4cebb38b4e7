/**
 * The test runners a command ends up running, found by reading what it names, never by running
 * it: a package manager's script (`npm test` → package.json's `"test": "vitest run"`, through
 * `npm run`, `run-s`, `concurrently`), a workspace form (each selected package's script), a make
 * target (make-recipes.ts), a shell script file, and the wrappers around a runner (`npx`,
 * `cross-env`, `env`, `c8`, `nyc`, `uv run`, `poetry run`, `python -m`, `coverage run -m`). What
 * ends in no runner ccc knows (`echo 5 passed`, `exit 0`, `tsc --noEmit`, `node run-tests.js`) is
 * named in `others`: such a command runs no test that ccc can read, whatever it prints.
 *
 * Each runner call keeps the arguments the command line gave it (`given`: `npm test -- -k add`
 * gives `-k add`), apart from the ones the script itself wrote: the script is the project's own
 * test command, the given ones may select a part of it. A workspace form that selects some of the
 * packages says so in `focus`.
 */
import path from 'node:path';
import type { ProjectFiles } from '../../init/project-files.js';
import { makefileIn, makeRecipes } from './make-recipes.js';
import { mayPrintProjectText } from './output-printers.js';
import { binName, fromKnownHead, runnerCall, skipOptions, withoutPrefix, type RunnerCall } from './runner-call.js';
import { shellSegments } from './shell-segments.js';
import { globRegex, packageJson, selectPackages, workspacePackages, type WorkspacePackage } from './workspace-packages.js';

export interface Resolution {
  calls: RunnerCall[];
  /** Commands it runs that are no test runner ccc knows, as written (the first few). */
  others: string[];
  /** Why it runs part of the suite, as its words say (`one workspace of 2 (\`-w packages/a\`)`). */
  focus: string[];
  /** The `echo` and `printf` commands it runs, as written: what they print is no runner's. */
  printed: string[];
  /** Other programs it runs that could print a line the project decides (output-printers.ts), as written (the first few). */
  printers: string[];
}

const MAX_DEPTH = 10;
const MAX_OTHERS = 4;
const MAX_PRINTED = 50;
const MAX_PRINTERS = 4;

interface Walk {
  files: ProjectFiles;
  seen: Set<string>;
  out: Resolution;
}

/** What `words` (one simple command, in `dir` of the project) runs. */
export function resolveCommand(files: ProjectFiles, words: readonly string[], dir = '.'): Resolution {
  const walk: Walk = { files, seen: new Set(), out: { calls: [], others: [], focus: [], printed: [], printers: [] } };
  resolveWords(walk, dir, [...words], words.length, 0);
  return walk.out;
}

/** A line of shell (a script's text, a recipe line) with `extra` words appended, as a script's arguments are, the last `given` of them given by the command line. */
function resolveLine(walk: Walk, dir: string, text: string, extra: readonly string[], given: number, depth: number): void {
  const segments = shellSegments(text);
  if (segments.length === 0) segments.push([]);
  segments[segments.length - 1]!.push(...extra);
  let here = dir;
  for (const [i, words] of segments.entries()) {
    const kept = i === segments.length - 1 ? given : 0;
    const plain = withoutPrefix(words);
    if (plain[0] === 'cd') {
      here = inside(here, plain[1]) ?? here;
      continue;
    }
    resolveWords(walk, here, words, kept, depth);
  }
}

function resolveWords(walk: Walk, dir: string, raw: string[], given: number, depth: number): void {
  const words = withoutPrefix(raw);
  const head = words[0];
  if (head === undefined || depth > MAX_DEPTH) return;
  const keep = Math.min(given, words.length - 1);
  const bin = binName(head);
  const rest = words.slice(1);
  const next = (w: string[]) => resolveWords(walk, dir, w, Math.min(keep, w.length), depth + 1);
  switch (bin) {
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return next(skipOptions(rest, ['-p', '--package', '-c', '--call']));
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
      return packageManager(walk, dir, bin, rest, keep, depth);
    case 'make':
    case 'gmake':
      return make(walk, dir, rest, depth);
    case 'turbo':
    case 'nx':
      return taskRunner(walk, dir, bin, rest, depth);
    case 'sh':
    case 'bash':
    case 'zsh':
    case 'dash':
      return shell(walk, dir, rest, keep, depth);
    case 'run-s':
    case 'run-p':
    case 'npm-run-all':
      return runAll(walk, dir, rest, depth);
    case 'concurrently':
      for (const arg of rest.filter((w) => !w.startsWith('-'))) {
        if (arg.startsWith('npm:')) runScripts(walk, dir, [arg.slice(4)], [], 0, depth + 1);
        else resolveLine(walk, dir, arg, [], 0, depth + 1);
      }
      return;
    case 'cross-env-shell':
      return resolveLine(walk, dir, rest.filter((w) => !/^[A-Za-z_]\w*=/.test(w)).join(' '), [], 0, depth + 1);
    case 'c8':
    case 'nyc':
      return next(fromKnownHead(rest));
    default:
      break;
  }
  const call = runnerCall(words, keep);
  if (call) {
    walk.out.calls.push(call);
    return;
  }
  if (head.includes('/') && !head.startsWith('/') && walk.files.read(path.posix.join(dir, head)) !== undefined) return scriptFile(walk, dir, head, depth);
  const printsText = bin === 'echo' || bin === 'printf';
  if (printsText && walk.out.printed.length < MAX_PRINTED) walk.out.printed.push(words.join(' '));
  // An echo of a substitution (`echo "$(cat out.txt)"`) prints what the file says, not what it reads.
  if (printsText ? words.some((w) => /\$\(|`/.test(w)) : mayPrintProjectText(words)) printer(walk, words.join(' '));
  if (walk.out.others.length < MAX_OTHERS) walk.out.others.push(words.join(' '));
}

function printer(walk: Walk, command: string): void {
  if (walk.out.printers.length < MAX_PRINTERS) walk.out.printers.push(command);
}

const MANAGER_VALUED = new Set([
  '-w',
  '--workspace',
  '--filter',
  '-F',
  '--prefix',
  '-C',
  '--dir',
  '--cwd',
  '--workspace-concurrency',
  '--reporter',
  '--loglevel',
]);
const SELECTS = new Set(['-w', '--workspace', '--filter', '-F']);
const SELECTS_ALL = new Set(['-ws', '--workspaces', '-r', '--recursive']);
const MOVES = new Set(['--prefix', '-C', '--dir', '--cwd']);

/**
 * `npm test`, `npm run unit -- -k x`, `pnpm --filter a test`, `yarn workspace a run test`,
 * `yarn workspaces foreach -A run test`, `bun run test`, `npm exec -- jest`. npm takes its options
 * anywhere before `--` and gives the script what follows it (and other words); pnpm, yarn and bun
 * give the script everything after its name.
 */
function packageManager(walk: Walk, dir: string, manager: string, args: string[], given: number, depth: number): void {
  let here = dir;
  const selectors: string[] = [];
  let all = false;
  const words: string[] = [];
  const extra: string[] = [];
  let script: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') {
      extra.push(...args.slice(i + 1));
      break;
    }
    const scriptKnown = script !== undefined && manager !== 'npm';
    if (word.startsWith('-') && !scriptKnown) {
      const [name, inline] = splitOption(word);
      const value = MANAGER_VALUED.has(name) && inline === undefined ? args[++i] : inline;
      if (SELECTS.has(name)) selectors.push(value ?? '');
      else if (SELECTS_ALL.has(name)) all = true;
      else if (MOVES.has(name)) here = inside(here, value) ?? here;
      continue;
    }
    if (script !== undefined) {
      extra.push(word);
      continue;
    }
    words.push(word);
    script = scriptName(walk, here, manager, words);
    if (script === undefined && !['run', 'run-script', 'rum', 'urn'].includes(word) && words.length === 1) break;
  }
  const [verb] = words;
  if (verb === undefined) return;
  if (manager === 'yarn' && (verb === 'workspace' || verb === 'workspaces')) return yarnWorkspaces(walk, here, args.slice(args.indexOf(verb)), depth);
  if (['exec', 'x', 'dlx'].includes(verb)) {
    const inner = skipOptions(args.slice(args.indexOf(verb) + 1), ['-c', '--call', '-p', '--package']);
    return resolveWords(walk, here, inner, Math.min(given, inner.length), depth + 1);
  }
  if (script === undefined) {
    // Installing runs the packages' lifecycle scripts (the project's `postinstall`, say), which print what they like.
    if (['install', 'i', 'ci', 'add', 'rebuild', 'link'].includes(verb)) printer(walk, [manager, ...args].join(' '));
    if (walk.out.others.length < MAX_OTHERS) walk.out.others.push([manager, ...args].join(' '));
    return;
  }
  if (selectors.length || all) return runWorkspaces(walk, here, selectors, all, script, extra, Math.min(given, extra.length), depth);
  runScripts(walk, here, [script], extra, Math.min(given, extra.length), depth);
}

/** The script the manager's words so far name: `test`, `t`, `run <name>`, or (pnpm, yarn) a script's own name. */
function scriptName(walk: Walk, dir: string, manager: string, words: readonly string[]): string | undefined {
  const [verb, name] = words;
  if (verb === undefined) return undefined;
  if (words.length === 1 && ['test', 't', 'tst'].includes(verb) && manager !== 'bun') return 'test';
  if (words.length === 2 && ['run', 'run-script', 'rum', 'urn'].includes(verb)) return name;
  if (words.length === 1 && (manager === 'pnpm' || manager === 'yarn') && packageJson(walk.files, dir)?.scripts[verb] !== undefined) return verb;
  return undefined;
}

/** `yarn workspace <name> [run] <script>`, `yarn workspaces foreach [options] run <script>`, `yarn workspaces run <script>`. */
function yarnWorkspaces(walk: Walk, dir: string, args: readonly string[], depth: number): void {
  if (args[0] === 'workspace') {
    const inner = args.slice(2);
    const script = inner[0] === 'run' ? inner[1] : inner[0];
    if (script === undefined) return;
    const extra = inner.slice(inner[0] === 'run' ? 2 : 1);
    return runWorkspaces(walk, dir, [args[1] ?? ''], false, script, extra, extra.length, depth);
  }
  const run = args.indexOf('run');
  const script = run === -1 ? undefined : args[run + 1];
  if (script === undefined) return;
  const options = args.slice(args[1] === 'foreach' ? 2 : 1, run);
  const picked: string[] = [];
  let everything = args[1] === 'run';
  for (let j = 0; j < options.length; j++) {
    if (['-A', '--all', '-R', '--recursive', '-W', '--worktree'].includes(options[j]!)) everything = true;
    else if (['--include', '--from'].includes(options[j]!)) picked.push(options[++j] ?? '');
  }
  const extra = args.slice(run + 2);
  runWorkspaces(walk, dir, picked, everything && picked.length === 0, script, extra, extra.length, depth);
}

/** `--filter=a` → [`--filter`, `a`]. */
function splitOption(word: string): [string, string | undefined] {
  const eq = word.startsWith('--') ? word.indexOf('=') : -1;
  return eq === -1 ? [word, undefined] : [word.slice(0, eq), word.slice(eq + 1)];
}

/** The scripts named (globs allowed, as run-s takes them) of the package in `dir`, each with `extra` appended (its last `given` words given by the command line). */
function runScripts(walk: Walk, dir: string, names: readonly string[], extra: readonly string[], given: number, depth: number): void {
  const pkg = packageJson(walk.files, dir);
  for (const name of names) {
    const matching = /[*?]/.test(name) ? Object.keys(pkg?.scripts ?? {}).filter((s) => globRegex(name).test(s)) : [name];
    for (const script of matching) {
      const text = pkg?.scripts[script];
      const key = `script:${dir}:${script}`;
      if (text === undefined) {
        if (walk.out.others.length < MAX_OTHERS)
          walk.out.others.push(`the script \`${script}\` (${dir === '.' ? 'package.json' : `${dir}/package.json`} has none)`);
        continue;
      }
      if (walk.seen.has(key)) continue;
      walk.seen.add(key);
      // npm runs `pre<name>` before and `post<name>` after a script: what they run is part of the run.
      const pre = pkg?.scripts[`pre${script}`];
      if (pre !== undefined) resolveLine(walk, dir, pre, [], 0, depth + 1);
      resolveLine(walk, dir, text, extra, given, depth + 1);
      const post = pkg?.scripts[`post${script}`];
      if (post !== undefined) resolveLine(walk, dir, post, [], 0, depth + 1);
      walk.seen.delete(key);
    }
  }
}

/** A workspace form: the script of each selected package (all of them with `all`); `focus` when only some run. */
function runWorkspaces(
  walk: Walk,
  root: string,
  selectors: readonly string[],
  all: boolean,
  script: string,
  extra: readonly string[],
  given: number,
  depth: number,
): void {
  const packages = workspacePackages(walk.files, root);
  const withScript = packages.filter((p) => p.scripts[script] !== undefined);
  const picked: WorkspacePackage[] = all ? withScript : [...new Set(selectors.flatMap((s) => selectPackages(packages, s)))];
  if (picked.length === 0) {
    if (walk.out.others.length < MAX_OTHERS) walk.out.others.push(`no workspace package with a \`${script}\` script (${selectors.join(', ') || 'all'})`);
    return;
  }
  const running = picked.filter((p) => p.scripts[script] !== undefined);
  if (!all && withScript.some((p) => !running.includes(p)))
    walk.out.focus.push(
      `${running.length === 1 ? 'one workspace' : `${running.length} workspaces`} of ${withScript.length} (${running.map((p) => p.dir).join(', ')})`,
    );
  for (const pkg of picked) runScripts(walk, pkg.dir, [script], extra, given, depth + 1);
}

/** `turbo run test [--filter a]`, `nx run-many -t test [-p a,b]`, `nx test a`, `nx run a:test`: the packages' scripts. */
function taskRunner(walk: Walk, dir: string, tool: string, args: readonly string[], depth: number): void {
  const selectors: string[] = [];
  let task: string | undefined;
  if (tool === 'turbo') {
    const words = args[0] === 'run' ? args.slice(1) : args;
    task = words.find((w) => !w.startsWith('-'));
    for (let i = 0; i < words.length; i++)
      if (['--filter', '-F'].includes(splitOption(words[i]!)[0])) selectors.push(splitOption(words[i]!)[1] ?? words[++i] ?? '');
  } else if (args[0] === 'run-many' || args[0] === 'affected') {
    for (let i = 1; i < args.length; i++) {
      const [name, inline] = splitOption(args[i]!);
      if (['-t', '--target', '--targets'].includes(name)) task = inline ?? args[++i];
      else if (['-p', '--projects'].includes(name)) selectors.push(...(inline ?? args[++i] ?? '').split(','));
    }
  } else if (args[0] === 'run' && args[1]?.includes(':')) {
    [selectors[0], task] = args[1].split(':') as [string, string];
  } else if (args[0] !== undefined && args[1] !== undefined && !args[1].startsWith('-')) {
    [task, selectors[0]] = [args[0], args[1]];
  }
  if (task === undefined) return;
  runWorkspaces(walk, dir, selectors, selectors.length === 0, task, [], 0, depth);
}

/** `make [-k] [-C dir] [-f file] target…`: the recipes, read (make-recipes.ts). */
function make(walk: Walk, dir: string, args: readonly string[], depth: number): void {
  let here = dir;
  let file: string | undefined;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = splitOption(args[i]!);
    if (name === '-C' || name === '--directory') here = inside(here, inline ?? args[++i]) ?? here;
    else if (name === '-f' || name === '--file' || name === '--makefile') file = inline ?? args[++i];
    else if (['-j', '--jobs', '-l', '-o', '-W'].includes(name) && inline === undefined && /^\d/.test(args[i + 1] ?? '')) i++;
    else if (!args[i]!.startsWith('-') && !args[i]!.includes('=')) targets.push(args[i]!);
  }
  const makefile = makefileIn(walk.files, here, file);
  const key = `make:${makefile ?? here}:${targets.join(' ')}`;
  if (makefile === undefined || walk.seen.has(key)) {
    if (makefile === undefined && walk.out.others.length < MAX_OTHERS) walk.out.others.push(`make ${targets.join(' ')} (no Makefile in ${here})`);
    return;
  }
  walk.seen.add(key);
  walk.out.calls.push({ family: 'make', args: [], given: [] });
  const { lines, missing } = makeRecipes(walk.files, makefile, targets);
  for (const target of missing) if (walk.out.others.length < MAX_OTHERS) walk.out.others.push(`make ${target} (no such target)`);
  for (const line of lines) resolveLine(walk, path.posix.dirname(makefile), line, [], 0, depth + 1);
  walk.seen.delete(key);
}

/** `bash -c '…'`, `sh scripts/test.sh`. */
function shell(walk: Walk, dir: string, args: readonly string[], given: number, depth: number): void {
  const c = args.indexOf('-c');
  if (c !== -1) return resolveLine(walk, dir, args[c + 1] ?? '', [], 0, depth + 1);
  const file = args.find((a) => !a.startsWith('-'));
  if (file !== undefined && walk.files.read(path.posix.join(dir, file)) !== undefined) return scriptFile(walk, dir, file, depth);
  printer(walk, ['sh', ...args].join(' '));
  if (walk.out.others.length < MAX_OTHERS) walk.out.others.push(['sh', ...args.slice(0, Math.max(0, args.length - given))].join(' '));
}

/** A shell script of the project, read line by line; a file with another interpreter (`#!/usr/bin/env node`) is a program. */
function scriptFile(walk: Walk, dir: string, file: string, depth: number): void {
  const name = path.posix.normalize(path.posix.join(dir, file));
  const text = walk.files.read(name) ?? '';
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  const interpreter = shebang ? path.posix.basename(shebang[1] === '/usr/bin/env' ? (shebang[2] ?? '') : shebang[1]!) : 'sh';
  if (!/^(ba|z|da)?sh$/.test(interpreter) || walk.seen.has(`file:${name}`)) {
    if (walk.out.others.length < MAX_OTHERS) walk.out.others.push(file);
    if (!walk.seen.has(`file:${name}`)) printer(walk, file);
    return;
  }
  walk.seen.add(`file:${name}`);
  for (const line of text.split(/\r?\n/).slice(0, 400)) if (!/^\s*(#|set\b|$)/.test(line)) resolveLine(walk, dir, line, [], 0, depth + 1);
  walk.seen.delete(`file:${name}`);
}

/** `run-s lint test:*`, `npm-run-all -p test:*`: the scripts named. */
function runAll(walk: Walk, dir: string, args: readonly string[], depth: number): void {
  const names = args.filter((w) => !w.startsWith('-'));
  runScripts(walk, dir, names, [], 0, depth + 1);
}

/** A folder of the project from `dir`; undefined when it would leave the project. */
function inside(dir: string, to: string | undefined): string | undefined {
  if (to === undefined || to.startsWith('/') || to.startsWith('~') || to.startsWith('$')) return undefined;
  const joined = path.posix.normalize(path.posix.join(dir, to));
  return joined === '..' || joined.startsWith('../') ? undefined : joined;
}
