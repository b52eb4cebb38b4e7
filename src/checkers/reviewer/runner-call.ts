/**
 * Which test runner one simple command names, read from its words: the wrappers that run the rest
 * as it is (`env`, `cross-env`, `uv run`, `poetry run`…), a runner's binary however it is spelled
 * (`node_modules/.bin/jest`, `python3.12`), `node --test`, and `python -m pytest` behind coverage.
 * command-runners.ts follows scripts, targets and files down to these words.
 */
import path from 'node:path';
import type { Family } from './runner-rules.js';

export interface RunnerCall {
  family: Family;
  /** Every argument the runner gets. */
  args: string[];
  /** The tail of `args` that the command line gave (not the script's own). */
  given: string[];
}

/** Environment assignments, shell keywords and wrappers that run the rest as it is. */
export function withoutPrefix(words: readonly string[]): string[] {
  let w = [...words];
  for (let guard = 0; guard < 20 && w.length; guard++) {
    const head = w[0]!;
    if (
      /^[A-Za-z_][A-Za-z0-9_]*=/.test(head) ||
      ['then', 'do', 'else', 'if', 'while', 'until', '!', '{', '}', 'time', 'exec', 'command', 'nohup'].includes(head)
    )
      w = w.slice(1);
    else if (head === 'env' || head === 'cross-env') w = skipOptions(w.slice(1), ['-u', '--unset', '-C', '--chdir']);
    else if (head === 'nice') w = skipOptions(w.slice(1), ['-n', '--adjustment']);
    else if (head === 'timeout') w = skipOptions(w.slice(1), ['-s', '--signal', '-k', '--kill-after']).slice(1);
    else if (head === 'xvfb-run') w = skipOptions(w.slice(1), ['-n', '--server-num', '-s', '--server-args', '-e', '--error-file', '-f', '--auth-file']);
    else if (head === 'dotenv') w = w.includes('--') ? w.slice(w.indexOf('--') + 1) : w.slice(1);
    else if (['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye'].includes(head) && w[1] === 'run')
      w = skipOptions(w.slice(2), ['--with', '--python', '-p', '--env', '-e']);
    else if (head === 'bundle' && w[1] === 'exec') w = w.slice(2);
    else if (head === '$@' || head === '"$@"') w = w.slice(1);
    else break;
  }
  return w.filter((word) => word !== '$@' && word !== '$*');
}

/** Options (and the values of `valued` ones) before the first other word. */
export function skipOptions(words: readonly string[], valued: readonly string[]): string[] {
  let i = 0;
  while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) {
    if (words[i] === '--') return words.slice(i + 1);
    i += valued.includes(words[i]!) ? 2 : 1;
  }
  return words.slice(i);
}

/** After a coverage wrapper's options (some take values): from the first word that names a runner or a command ccc follows. */
export function fromKnownHead(words: readonly string[]): string[] {
  const known = words.findIndex((w) => KNOWN_HEADS.has(binName(w)));
  if (known !== -1) return words.slice(known);
  const first = words.findIndex((w) => !w.startsWith('-'));
  return first === -1 ? [] : words.slice(first);
}

const KNOWN_HEADS = new Set(['node', 'npm', 'npx', 'pnpm', 'yarn', 'jest', 'vitest', 'mocha', '_mocha', 'pytest', 'python', 'python3', 'ava', 'tap']);

/** `node_modules/.bin/jest` → `jest`; `./mvnw` → `mvnw`; `python3.12` → `python3`. */
export function binName(head: string): string {
  const base = head.includes('/') && /(^|\/)(node_modules\/\.bin|vendor\/bin)\//.test(head) ? path.posix.basename(head) : head;
  const name = base === './mvnw' || base === './gradlew' ? base.slice(2) : base;
  return /^python3(\.\d+)?$/.test(name) ? 'python3' : name;
}

/** A runner ccc knows, as its command line names it; undefined for anything else. */
export function runnerCall(words: readonly string[], given: number): RunnerCall | undefined {
  const bin = binName(words[0]!);
  const call = (family: Family, from: number): RunnerCall => {
    const args = words.slice(from);
    return { family, args, given: args.slice(Math.max(0, args.length - given)) };
  };
  const second = words[1];
  switch (bin) {
    case 'node':
      return nodeOptions(words.slice(1)).includes('--test') ? call('node-test', 1) : undefined;
    case 'jest':
    case 'vitest':
    case 'mocha':
      return call(bin, 1);
    case '_mocha':
      return call('mocha', 1);
    case 'pytest':
    case 'py.test':
      return call('pytest', 1);
    case 'python':
    case 'python3':
    case 'py':
      return pythonModule(words, 1, call);
    case 'coverage':
      return second === 'run' ? pythonModule(words, 2, call) : undefined;
    case 'go':
      return second === 'test' ? call('go', 2) : undefined;
    case 'cargo': {
      const at = second?.startsWith('+') ? 2 : 1;
      return words[at] === 'test' ? call('cargo', at + 1) : undefined;
    }
    case 'deno':
    case 'dotnet':
    case 'mix':
      return second === 'test' ? call(bin, 2) : undefined;
    case 'rspec':
      return call('rspec', 1);
    case 'phpunit':
      return call('phpunit', 1);
    case 'mvn':
    case 'mvnw':
      return words.slice(1).some((w) => w === 'test' || w === 'verify' || w === 'install') ? call('maven', 1) : undefined;
    case 'gradle':
    case 'gradlew':
      return words.slice(1).some((w) => w === 'test' || w === 'check' || w === 'build') ? call('gradle', 1) : undefined;
    default:
      return undefined;
  }
}

/** node's options before its script: `--test` may come among them. */
function nodeOptions(args: readonly string[]): string[] {
  const end = args.findIndex((a) => !a.startsWith('-'));
  return end === -1 ? [...args] : args.slice(0, end);
}

/** `python3 -X dev -m pytest …`, `coverage run --source x -m pytest`: the module after `-m`. */
function pythonModule(words: readonly string[], from: number, call: (family: Family, from: number) => RunnerCall): RunnerCall | undefined {
  for (let i = from; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-m') {
      const module = words[i + 1];
      if (module === 'pytest' || module === 'py.test') return call('pytest', i + 2);
      if (module === 'unittest') return call('unittest', i + 2);
      if (module === 'coverage' && words[i + 2] === 'run') return pythonModule(words, i + 3, call);
      return undefined;
    }
    if (!word.startsWith('-')) return undefined; // a script file: a program, not a runner ccc knows
    if (['-X', '-W', '--source', '--rcfile', '--include', '--omit', '--data-file', '--concurrency', '--context'].includes(word)) i++;
  }
  return undefined;
}
