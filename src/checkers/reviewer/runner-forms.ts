/**
 * The ways a reviewer may invoke a detected test command with arguments: the command itself
 * (`npm test -- test/answer.test.js`, `python3 -m pytest -k add`), its usual spellings (`npm run
 * test`, `pytest`), and the runner an npm script calls, directly (`node --test test/a.test.js`,
 * `npx vitest run src/x.test.ts`). The arguments are judged by the runner's table (runner-args.ts).
 */
import type { DetectedTest, RunnerFamily } from '../../init/ecosystems.js';

export interface RunnerForm {
  /** The words that invoke it: `['npm', 'test']`, `['python3', '-m', 'pytest']`. */
  words: string[];
  /** The runner whose arguments follow. */
  family: RunnerFamily;
  /**
   * A package manager running a script: its arguments go to the script after `--` ('required':
   * npm and composer; 'optional': pnpm, yarn and bun pass them on as they are). Before it, only
   * the manager's `--silent`.
   */
  script?: 'required' | 'optional';
  /** Named in what the reviewer is told it may run (the other spellings are allowed silently). */
  shown?: boolean;
  /** The target may come after the tool's options (`make -k test`, `mvn -q test`): the last word may be anywhere. */
  floating?: boolean;
}

const FLOATING_TARGET = new Set<RunnerFamily>(['make', 'maven', 'gradle']);

/** The runner an npm script calls, as the reviewer may call it directly. */
const DIRECT: Partial<Record<RunnerFamily, string[][]>> = {
  'node-test': [['node', '--test']],
  jest: npxForms('jest'),
  vitest: npxForms('vitest'),
  mocha: npxForms('mocha'),
  pytest: pytestForms(),
};

const SCRIPT_RUNS: Record<string, { words: string[][]; script: 'required' | 'optional' }> = {
  npm: {
    words: [
      ['npm', 'test'],
      ['npm', 'run', 'test'],
      ['npm', 't'],
    ],
    script: 'required',
  },
  pnpm: {
    words: [
      ['pnpm', 'test'],
      ['pnpm', 'run', 'test'],
    ],
    script: 'optional',
  },
  yarn: {
    words: [
      ['yarn', 'test'],
      ['yarn', 'run', 'test'],
    ],
    script: 'optional',
  },
  bun: { words: [['bun', 'run', 'test']], script: 'optional' },
};

export function runnerForms(tests: readonly DetectedTest[]): RunnerForm[] {
  const forms: RunnerForm[] = [];
  const add = (words: string[], family: RunnerFamily, options: { script?: RunnerForm['script']; shown?: boolean } = {}) => {
    if (!forms.some((f) => f.words.join(' ') === words.join(' '))) forms.push({ words, family, ...options });
  };
  for (const test of tests) {
    const scriptRun = SCRIPT_RUNS[test.ecosystem];
    if (scriptRun) {
      scriptRun.words.forEach((words, i) => add(words, test.runner, { script: scriptRun.script, shown: i === 0 }));
      (DIRECT[test.runner] ?? []).forEach((words, i) => add(words, test.runner, { shown: i === 0 }));
    } else if (test.command === 'composer test') {
      add(['composer', 'test'], test.runner, { script: 'required', shown: true });
    } else {
      add(
        test.command.split(' ').filter((w) => w !== './...'),
        test.runner,
        { shown: true, ...(FLOATING_TARGET.has(test.runner) ? { floating: true } : {}) },
      );
      for (const words of spellings(test)) add(words, test.runner);
    }
  }
  return forms;
}

/** Other spellings of the same command that reviewers reach for. */
function spellings(test: DetectedTest): string[][] {
  if (test.runner === 'pytest') {
    const launcher = test.command.split(' ').slice(0, -1);
    return [...(launcher.length === 2 ? [[...launcher, 'python', '-m', 'pytest']] : []), ...pytestForms()];
  }
  if (test.command === 'vendor/bin/phpunit') return [['./vendor/bin/phpunit']];
  return [];
}

function pytestForms(): string[][] {
  return [['python3', '-m', 'pytest'], ['python', '-m', 'pytest'], ['pytest']];
}

function npxForms(bin: string): string[][] {
  return [['npx', bin], ['npx', '--no-install', bin], [`node_modules/.bin/${bin}`], [`./node_modules/.bin/${bin}`]];
}
