/**
 * A monorepo's test scripts, run for some of its packages: the workspace forms of the package
 * manager ccc detected (`pnpm --filter @mono/strings test`, `npm test -w packages/a`, `yarn
 * workspace a test`, `yarn workspaces foreach -A run test`, `bun run --filter a test`) and turbo's
 * and nx's test task when the repository uses them (`turbo run test --filter a`, `nx run-many -t
 * test -p a`). Only the `test` script or task: any other (`pnpm --filter a add x`, `npm -w a
 * install`, `turbo run build`) is not a verification command. A selector names packages of the
 * workspace; one written as a path must be inside the project. The packages' own test runners are
 * not known here, so their arguments are not passed on (nothing after `--`).
 */
import { pathInside, type PathCheck } from './project-paths.js';

/** The workspace tools of a project: its package manager when it declares workspaces, and turbo or nx when configured. */
export type WorkspaceTool = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'turbo' | 'nx';

/** How each tool's forms are shown to the reviewer and in `ccc config`. */
export const WORKSPACE_USAGE: Readonly<Record<WorkspaceTool, readonly string[]>> = {
  npm: ['npm test -w <workspace>', 'npm test --workspaces'],
  pnpm: ['pnpm --filter <package> test', 'pnpm -r test'],
  yarn: ['yarn workspace <name> test', 'yarn workspaces foreach -A run test'],
  bun: ['bun run --filter <package> test'],
  turbo: ['turbo run test --filter <package>'],
  nx: ['nx run-many -t test -p <project>', 'nx test <project>'],
};

export type WorkspaceJudgement = { ok: true } | { ok: false; reason: string };

interface Options {
  flags: readonly string[];
  /** Options that take a value; `selector` values may name a path, which must be inside the project. */
  valued: Readonly<Record<string, 'selector' | 'number' | 'any'>>;
}

const NPM: Options = {
  flags: ['-ws', '--workspaces', '--if-present', '--include-workspace-root', '--silent', '-s'],
  valued: { '-w': 'selector', '--workspace': 'selector' },
};
const PNPM: Options = {
  flags: ['-r', '--recursive', '--if-present', '--no-bail', '--stream', '--parallel', '--silent', '-s', '--reporter-hide-prefix'],
  valued: { '--filter': 'selector', '-F': 'selector', '--workspace-concurrency': 'number' },
};
const YARN_FOREACH: Options = {
  flags: [
    '-A',
    '--all',
    '-R',
    '--recursive',
    '-W',
    '--worktree',
    '-p',
    '--parallel',
    '-i',
    '--interlaced',
    '-v',
    '--verbose',
    '-t',
    '--topological',
    '--topological-dev',
  ],
  valued: { '--include': 'selector', '--exclude': 'selector', '--from': 'selector', '-j': 'number', '--jobs': 'number' },
};
const BUN: Options = { flags: ['--silent'], valued: { '--filter': 'selector', '-F': 'selector' } };
const TURBO: Options = {
  flags: ['--affected', '--continue', '--only', '--force', '--no-daemon'],
  valued: { '--filter': 'selector', '-F': 'selector', '--concurrency': 'any', '--output-logs': 'any', '--log-order': 'any', '--log-prefix': 'any' },
};
const NX: Options = {
  flags: ['--skip-nx-cache', '--verbose', '--nxBail', '--parallel'],
  valued: { '-p': 'selector', '--projects': 'selector', '--exclude': 'selector', '--parallel': 'number', '--output-style': 'any' },
};

/** Where the command runs: selectors written as paths are resolved from `base` and must stay inside `root`. */
export interface WorkspaceWhere {
  root: string;
  base: string;
}

/**
 * Undefined when `words` is not a workspace form of one of `tools`; else whether it may run. A
 * form must select packages (a plain `npm test` is the root's script, judged elsewhere).
 */
export function judgeWorkspaceCommand(tools: readonly WorkspaceTool[], words: readonly string[], where: WorkspaceWhere): WorkspaceJudgement | undefined {
  const [head, ...rest] = words[0] === 'npx' && (words[1] === 'turbo' || words[1] === 'nx') ? words.slice(1) : words;
  if (head === undefined || !(tools as readonly string[]).includes(head)) return undefined;
  switch (head) {
    case 'npm':
      return scriptRun(rest, NPM, [['test'], ['t'], ['run', 'test'], ['run-script', 'test']], where);
    case 'pnpm':
      return scriptRun(rest, PNPM, [['test'], ['run', 'test']], where);
    case 'bun':
      // `bun test` is bun's own runner: a script runs as `bun run test`, the selection before or after `run`.
      return rest[0] === 'run' ? scriptRun(rest.slice(1), BUN, [['test']], where) : scriptRun(rest, BUN, [['run', 'test']], where);
    case 'yarn':
      return yarnRun(rest, where);
    case 'turbo':
      return taskRun(rest, TURBO, [['run', 'test'], ['test']], where);
    case 'nx':
      return nxRun(rest, where);
    default:
      return undefined;
  }
}

/** `<manager> [selection] test [selection] [--]`: the script name among the manager's selection options, which must select. */
function scriptRun(words: readonly string[], options: Options, scripts: readonly string[][], where: WorkspaceWhere): WorkspaceJudgement | undefined {
  let at = 0;
  while (at < words.length && words[at]!.startsWith('-')) {
    const taken = optionLength(options, words, at);
    if (taken === 0) break;
    at += taken;
  }
  const script = scripts.find((s) => sameStart(words.slice(at), s));
  if (!script) return undefined;
  const selection = [...words.slice(0, at), ...words.slice(at + script.length)];
  if (!selects(options, selection)) return undefined;
  return judgeOptions(options, selection, where);
}

function yarnRun(args: readonly string[], where: WorkspaceWhere): WorkspaceJudgement | undefined {
  if (args[0] === 'workspace') {
    const name = args[1];
    if (name === undefined || name.startsWith('-')) return undefined;
    const rest = args.slice(2);
    if (!sameStart(rest, ['test']) && !sameStart(rest, ['run', 'test'])) return undefined;
    const extra = rest.slice(rest[0] === 'run' ? 2 : 1);
    return extra.length ? { ok: false, reason: argumentsNotPassed(extra) } : selector(name, where);
  }
  if (args[0] !== 'workspaces') return undefined;
  if (args[1] === 'run' && args[2] === 'test') return args.length > 3 ? { ok: false, reason: argumentsNotPassed(args.slice(3)) } : { ok: true };
  if (args[1] !== 'foreach') return undefined;
  const run = args.indexOf('run');
  if (run === -1 || args[run + 1] !== 'test') return undefined;
  if (args.length > run + 2) return { ok: false, reason: argumentsNotPassed(args.slice(run + 2)) };
  return judgeOptions(YARN_FOREACH, args.slice(2, run), where);
}

/** `turbo run test [options]`: the task, then options; only the test task. */
function taskRun(args: readonly string[], options: Options, tasks: readonly string[][], where: WorkspaceWhere): WorkspaceJudgement | undefined {
  const task = tasks.find((t) => sameStart(args, t));
  if (!task) return undefined;
  return judgeOptions(options, args.slice(task.length), where);
}

function nxRun(args: readonly string[], where: WorkspaceWhere): WorkspaceJudgement | undefined {
  if (args[0] === 'test') return judgeOptions(NX, args.slice(1), where, true);
  if (args[0] === 'run' && args.length >= 2 && /^[^-][^:]*:test$/.test(args[1]!)) return judgeOptions(NX, args.slice(2), where);
  if (args[0] !== 'run-many' && args[0] !== 'affected') return undefined;
  const rest = [...args.slice(1)];
  const target = rest.findIndex((w) => ['-t', '--target', '--targets'].includes(w));
  const inline = rest.findIndex((w) => /^--targets?=test$/.test(w));
  if (target !== -1 && rest[target + 1] === 'test') rest.splice(target, 2);
  else if (inline !== -1) rest.splice(inline, 1);
  else return undefined;
  return judgeOptions(NX, rest, where);
}

/** The words an option takes at `at` (1 or 2), or 0 when it is none of `options`. */
function optionLength(options: Options, words: readonly string[], at: number): number {
  const word = words[at]!;
  const name = word.startsWith('--') ? word.split('=')[0]! : word;
  if (Object.hasOwn(options.valued, name)) return name !== word ? 1 : 2;
  return options.flags.includes(word) ? 1 : 0;
}

function selects(options: Options, words: readonly string[]): boolean {
  return words.some((w) => {
    const name = w.startsWith('--') ? w.split('=')[0]! : w;
    return options.valued[name] === 'selector' || ['-ws', '--workspaces', '-r', '--recursive'].includes(w);
  });
}

function judgeOptions(options: Options, words: readonly string[], where: WorkspaceWhere, projectFirst = false): WorkspaceJudgement {
  let at = 0;
  if (projectFirst && words[0] !== undefined && !words[0].startsWith('-')) at = 1;
  for (; at < words.length; at++) {
    const word = words[at]!;
    if (word === '--') return words.length > at + 1 ? { ok: false, reason: argumentsNotPassed(words.slice(at + 1)) } : { ok: true };
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq === -1 ? word : word.slice(0, eq);
    if (options.flags.includes(word)) continue;
    const kind = Object.hasOwn(options.valued, name) ? options.valued[name] : undefined;
    if (kind === undefined) return { ok: false, reason: `\`${word}\` is not an option that selects packages or changes what is reported` };
    const value = eq === -1 ? words[++at] : word.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return { ok: false, reason: `\`${name}\` needs a value that does not start with \`-\`` };
    if (kind === 'number' && !/^\d+$/.test(value)) return { ok: false, reason: `\`${name}\` takes a number` };
    if (kind === 'selector') {
      const inside = selector(value, where);
      if (!inside.ok) return inside;
    }
  }
  return { ok: true };
}

/** A package selector: a name or a glob, or a path (`./packages/a`, `{packages/a}...`) that must be inside the project. */
function selector(value: string, where: WorkspaceWhere): PathCheck {
  const bare = value
    .replace(/^!/, '')
    .replace(/^\.\.\.(?=[^./])|\.\.\.$/g, '')
    .replace(/^\^/, '');
  const braced = /^\{(.*)\}(?:\[.*\])?$/.exec(bare)?.[1];
  if (bare.startsWith('~')) return { ok: false, reason: `\`${value}\`: a path outside the project` };
  const path = braced ?? (/^(\.|\/)/.test(bare) || (bare.includes('/') && !bare.startsWith('@')) ? bare : undefined);
  if (path === undefined) return { ok: true };
  return pathInside(where.root, where.base, path.replace(/\/\*+$/, '') || '.');
}

function argumentsNotPassed(extra: readonly string[]): string {
  return `arguments for the packages' test scripts (\`${extra.join(' ')}\`) are not passed on: ccc does not know the runner each package's script runs`;
}

function sameStart(words: readonly string[], start: readonly string[]): boolean {
  return start.length <= words.length && start.every((w, i) => words[i] === w);
}
