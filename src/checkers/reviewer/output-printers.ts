/**
 * Which programs beside a test runner could put a runner's summary into a command's output. The
 * output is one stream: `pytest -k nothing; node print.js` prints pytest's "5 deselected" and then
 * whatever print.js says ("5 passed in 0.1s"), and no reading of the text can tell whose line is
 * whose. So a summary is read only from a command whose other programs cannot print text the
 * project decides, or choose which of the runner's lines are left. Those that can: a project file
 * run as a program (`./report`, `node print.js`, `python3 -c …`), a program that prints files or
 * filters what it reads (`cat`, `sed`, `grep -v FAIL`, and `head`/`tail`: `go test ./... | tail -1`
 * keeps the last package's `ok` and drops an earlier `FAIL`, and exits 0), and anything ccc does
 * not know. The reviewer's own command line is judged before this (a pipe after the runner makes
 * its exit code no evidence); this reads what the project's scripts, recipes and files run. Those that cannot: shell built-ins and file
 * operations that print nothing of the files, and the build and lint tools a test script runs first
 * (their output is their own; a plugin of theirs that prints a summary is a change to their config,
 * which the review of changed test files names).
 */
import path from 'node:path';

/** Shell words that end or open a compound command: the commands inside are read on their own. */
const SHELL_WORDS = new Set(['fi', 'done', 'esac', 'case', 'for', 'select', 'function', 'in', ';;']);

const QUIET = new Set([
  ':',
  'true',
  'false',
  'exit',
  'return',
  'export',
  'unset',
  'set',
  'shift',
  'wait',
  'sleep',
  'test',
  '[',
  '[[',
  'rm',
  'rmdir',
  'mkdir',
  'touch',
  'cp',
  'mv',
  'ln',
  'chmod',
  'chown',
  'kill',
  'pkill',
  'tee',
  'rimraf',
  'mkdirp',
  'del-cli',
]);

const BUILD_AND_LINT = new Set([
  'tsc',
  'tsup',
  'tsc-alias',
  'vite',
  'webpack',
  'rollup',
  'esbuild',
  'swc',
  'babel',
  'next',
  'eslint',
  'prettier',
  'biome',
  'oxlint',
  'stylelint',
  'ruff',
  'black',
  'isort',
  'flake8',
  'pylint',
  'mypy',
  'pyright',
  'gofmt',
  'golangci-lint',
  'rustfmt',
  'shellcheck',
  'cmake',
  'ninja',
  'gcc',
  'cc',
  'clang',
  'rustc',
]);

/** Subcommands of a toolchain that build or check and print their own output only. */
const TOOLCHAIN_BUILDS: Record<string, readonly string[]> = {
  cargo: ['build', 'check', 'clippy', 'fmt'],
  go: ['build', 'vet', 'fmt'],
};

/** Whether `words` (one simple command, prefixes removed) could print a line the project decides. */
export function mayPrintProjectText(words: readonly string[]): boolean {
  const head = words[0];
  if (head === undefined) return false;
  if (head === 'elif') return mayPrintProjectText(words.slice(1));
  const bin = path.posix.basename(head);
  if (SHELL_WORDS.has(head) || QUIET.has(bin) || BUILD_AND_LINT.has(bin)) return false;
  const builds = TOOLCHAIN_BUILDS[bin];
  if (builds) return !builds.includes(words[1] ?? '');
  return true;
}
