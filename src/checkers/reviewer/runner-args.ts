/**
 * The arguments a test runner may be given by the reviewer, per runner: options that select tests
 * or change what is reported on the terminal, and paths inside the project. Everything else is
 * refused (fail closed): an option ccc does not list, an option that writes (snapshot updates,
 * output and coverage files, `--fix`), or one that runs another program (a reporter module, a
 * config file, `-exec`). Coverage is refused where it writes a directory or a data file.
 *
 * An option's value is never an option itself (`-t -u` is refused: some parsers would read it as
 * `-t '' -u`).
 */
import type { RunnerFamily } from '../../init/ecosystems.js';
import { pathInside, type PathCheck } from './project-paths.js';

/** A value an option takes: anything (a name, a pattern), a number, a path in the project, or one of a list. */
type ValueRule = 'any' | 'number' | 'path' | readonly string[];

interface FamilyRules {
  /** How the runner is named in a refusal. */
  name: string;
  flags: readonly string[];
  valued: Readonly<Record<string, ValueRule>>;
  /** Options refused with what they do; matched on the option's name (`--outputFile=x` too). */
  refused: ReadonlyArray<readonly [RegExp, string]>;
  /** What a word that is not an option is: a path in the project, a test name, or nothing allowed. */
  positional: 'path' | 'name' | 'none';
  /** getopt-style bundles: `-vx` is `-v -x`, `-kadd` is `-k add`. */
  bundles?: boolean;
  /** `-run` and `--run` are the same option (Go's flag package). */
  goStyle?: boolean;
  /** The arguments after `--` are judged by another table (cargo passes them to the test binary). */
  afterDashDash?: Family;
  /** A test selector after a path, removed before the path is checked (`::test_add`, `:12`). */
  selector?: RegExp;
  /** Words allowed as the first positional (vitest's `run`). */
  subcommands?: readonly string[];
  /** Paths must be written relative (`./pkg/...`): Go reads `example.com/x` as another module. */
  dotRelative?: boolean;
}

export type Family = RunnerFamily | 'libtest';

const SNAPSHOTS = 'it updates snapshots';
const WRITES = 'it writes a file';
const COVERAGE = 'coverage writes its data into the project';
const RUNS = 'it loads or runs another program';
const WATCH = 'watch mode never ends';
const CONFIG = 'another config file can change what runs and where it writes';

export const FAMILIES: Readonly<Record<Family, FamilyRules>> = {
  'node-test': {
    name: 'node --test',
    flags: [
      '--test',
      '--test-only',
      '--test-force-exit',
      '--experimental-test-coverage',
      '--experimental-strip-types',
      '--no-warnings',
      '--enable-source-maps',
    ],
    valued: {
      '--test-name-pattern': 'any',
      '--test-skip-pattern': 'any',
      '--test-reporter': ['spec', 'tap', 'dot', 'junit', 'lcov'],
      '--test-reporter-destination': ['stdout', 'stderr'],
      '--test-concurrency': 'number',
      '--test-timeout': 'number',
    },
    refused: [
      [/^--test-update-snapshots$/, SNAPSHOTS],
      [/^--watch/, WATCH],
      [/^(--import|--require|-r|--loader|--experimental-loader|-e|--eval|-p|--print)$/, RUNS],
    ],
    positional: 'path',
  },
  jest: {
    name: 'jest',
    flags: [
      '--ci',
      '--verbose',
      '--silent',
      '--bail',
      '-b',
      '--runInBand',
      '-i',
      '--colors',
      '--passWithNoTests',
      '--detectOpenHandles',
      '--forceExit',
      '--listTests',
      '--noStackTrace',
      '--errorOnDeprecated',
      '--json',
      '--no-cache',
      '--expand',
      '-e',
      '--useStderr',
    ],
    valued: {
      '-t': 'any',
      '--testNamePattern': 'any',
      '--testPathPattern': 'any',
      '--testPathPatterns': 'any',
      '--testPathIgnorePatterns': 'any',
      '--maxWorkers': 'any',
      '-w': 'any',
      '--testTimeout': 'number',
      '--seed': 'number',
      '--shard': 'any',
    },
    refused: [
      [/^(-u|--updateSnapshot|--update-snapshot|--ci=false|--no-ci)$/, SNAPSHOTS],
      [/^(--outputFile|--output-file)$/, WRITES],
      [/^(--coverage|--collectCoverage|--collect-coverage|--coverageDirectory|--coverage-directory)$/, COVERAGE],
      [/^(--watch|--watchAll|--watch-all)$/, WATCH],
      [/^(-c|--config|--rootDir|--roots)$/, CONFIG],
      [/^(--reporters|--testResultsProcessor|--setupFiles|--setupFilesAfterEnv|--globalSetup|--globalTeardown|--testRunner|--transform|--resolver)$/, RUNS],
    ],
    positional: 'path',
  },
  vitest: {
    name: 'vitest',
    flags: ['--run', '--silent', '--passWithNoTests', '--no-color', '--allowOnly', '--hideSkippedTests', '--no-file-parallelism'],
    valued: {
      '-t': 'any',
      '--testNamePattern': 'any',
      '--reporter': ['default', 'verbose', 'dot', 'basic', 'tap', 'tap-flat', 'json', 'junit', 'tree', 'hanging-process'],
      '--bail': 'number',
      '--testTimeout': 'number',
      '--shard': 'any',
      '--project': 'any',
      '--maxWorkers': 'any',
    },
    refused: [
      [/^(-u|--update)$/, SNAPSHOTS],
      [/^(--outputFile|--outputFile\..*)$/, WRITES],
      [/^--coverage/, COVERAGE],
      [/^(-w|--watch)$/, WATCH],
      [/^(-c|--config|-r|--root|--dir|--workspace)$/, CONFIG],
      [/^(--ui|--open|--api|--browser|--inspect.*)$/, 'it starts a server'],
    ],
    positional: 'path',
    subcommands: ['run'],
  },
  mocha: {
    name: 'mocha',
    flags: ['--bail', '-b', '--exit', '--forbid-only', '--full-trace', '--recursive', '--inline-diffs', '--check-leaks', '--dry-run', '--no-colors'],
    valued: {
      '-g': 'any',
      '--grep': 'any',
      '-f': 'any',
      '--fgrep': 'any',
      '-t': 'any',
      '--timeout': 'any',
      '--slow': 'any',
      '-R': ['spec', 'dot', 'tap', 'list', 'min', 'json', 'progress', 'doc', 'json-stream'],
      '--reporter': ['spec', 'dot', 'tap', 'list', 'min', 'json', 'progress', 'doc', 'json-stream'],
      '--retries': 'number',
      '-j': 'number',
      '--jobs': 'number',
    },
    refused: [
      [/^(-O|--reporter-option|--reporter-options)$/, WRITES],
      [/^(-r|--require|--file|-u|--ui)$/, RUNS],
      [/^(-w|--watch)$/, WATCH],
      [/^(--config|--package|--opts)$/, CONFIG],
    ],
    positional: 'path',
  },
  pytest: {
    name: 'pytest',
    flags: [
      '-q',
      '-v',
      '-x',
      '-s',
      '-l',
      '--quiet',
      '--verbose',
      '--exitfirst',
      '--showlocals',
      '--co',
      '--collect-only',
      '--lf',
      '--last-failed',
      '--ff',
      '--failed-first',
      '--nf',
      '--new-first',
      '--sw',
      '--stepwise',
      '--no-header',
      '--no-summary',
      '--disable-warnings',
      '--strict-markers',
      '--runxfail',
      '--full-trace',
      '--fulltrace',
    ],
    valued: {
      '-k': 'any',
      '-m': 'any',
      '-r': 'any',
      '-W': 'any',
      '--maxfail': 'number',
      '--tb': ['auto', 'long', 'short', 'line', 'native', 'no'],
      '--durations': 'number',
      '--durations-min': 'number',
      '--color': ['yes', 'no', 'auto'],
      '--capture': ['fd', 'sys', 'no', 'tee-sys'],
      '--deselect': 'path',
      '--ignore': 'path',
      '--ignore-glob': 'path',
      '--import-mode': ['prepend', 'append', 'importlib'],
      '-p': ['no:cacheprovider'],
    },
    refused: [
      [/^(-o|--override-ini)$/, 'it overrides the configuration (where the cache and reports go)'],
      [/^(--junitxml|--junit-xml|--result-log|--resultlog|--log-file|--debug|--basetemp|--pastebin)$/, WRITES],
      [/^--cov/, COVERAGE],
      [/^(--snapshot-update|--update-snapshots|--inline-snapshot)$/, SNAPSHOTS],
      [/^(-c|--config-file|--rootdir|--confcutdir)$/, CONFIG],
      [/^(--pdb|--trace|--pdbcls)$/, 'a debugger waits for input'],
      [/^--cache-clear$/, 'it deletes the cache'],
    ],
    positional: 'path',
    bundles: true,
    selector: /::.*$/s,
  },
  go: {
    name: 'go test',
    flags: ['-v', '-short', '-failfast', '-race', '-json', '-cover'],
    valued: {
      '-run': 'any',
      '-skip': 'any',
      '-count': 'number',
      '-timeout': 'any',
      '-list': 'any',
      '-parallel': 'number',
      '-p': 'number',
      '-cpu': 'any',
      '-shuffle': 'any',
      '-tags': 'any',
    },
    refused: [
      [/^(-o|-c|-outputdir)$/, WRITES],
      [/^-(coverprofile|cpuprofile|memprofile|blockprofile|mutexprofile|trace)$/, WRITES],
      [/^(-exec|-toolexec)$/, RUNS],
      [/^-args$/, 'the rest would go to the test binary unchecked (e.g. -update)'],
      [/^(-mod|-modfile)$/, 'it may rewrite go.mod'],
      [/^-fuzz$/, 'fuzzing writes its corpus into testdata'],
    ],
    positional: 'path',
    goStyle: true,
    dotRelative: true,
    selector: /\/\.\.\.$/,
  },
  cargo: {
    name: 'cargo test',
    flags: [
      '--lib',
      '--bins',
      '--tests',
      '--doc',
      '--all-targets',
      '--no-fail-fast',
      '-q',
      '--quiet',
      '-v',
      '--verbose',
      '--release',
      '--workspace',
      '--all-features',
      '--no-default-features',
      '--offline',
      '--frozen',
      '--locked',
      '--no-run',
    ],
    valued: {
      '--test': 'any',
      '--bin': 'any',
      '--example': 'any',
      '-p': 'any',
      '--package': 'any',
      '-F': 'any',
      '--features': 'any',
      '--exclude': 'any',
      '--color': ['auto', 'always', 'never'],
      '-j': 'number',
      '--jobs': 'number',
      '--message-format': 'any',
      '--profile': 'any',
    },
    refused: [
      [/^(--target-dir|--artifact-dir|--lockfile-path)$/, WRITES],
      [/^(--manifest-path|-C)$/, 'another crate runs its own build script'],
      [/^(--config|-Z)$/, 'a config value can set the program that runs the tests'],
    ],
    positional: 'name',
    bundles: true,
    afterDashDash: 'libtest',
  },
  libtest: {
    name: 'the Rust test binary',
    flags: ['--nocapture', '--show-output', '--exact', '--ignored', '--include-ignored', '--list', '-q', '--quiet', '--test'],
    valued: { '--test-threads': 'number', '--skip': 'any', '--color': ['auto', 'always', 'never'], '--format': ['pretty', 'terse'] },
    refused: [[/^--logfile$/, WRITES]],
    positional: 'name',
  },
  maven: {
    name: 'Maven',
    flags: [
      '-q',
      '--quiet',
      '-e',
      '--errors',
      '-B',
      '--batch-mode',
      '--offline',
      '-ff',
      '--fail-fast',
      '-fae',
      '--fail-at-end',
      '-ntp',
      '--no-transfer-progress',
      '-X',
      '--debug',
    ],
    valued: { '-pl': 'any', '--projects': 'any' },
    refused: [
      [/^(-s|--settings|-gs|--global-settings|-f|--file|-t|--toolchains)$/, CONFIG],
      [/^(-l|--log-file)$/, WRITES],
      [/^-D/, 'only -Dtest=, -Dit.test=, -Dgroups=, -DexcludedGroups= and -DfailIfNoTests= are allowed'],
    ],
    positional: 'none',
  },
  gradle: {
    name: 'Gradle',
    flags: ['-q', '--quiet', '-i', '--info', '--stacktrace', '-s', '--continue', '--offline', '--fail-fast', '--no-daemon', '--rerun-tasks'],
    valued: { '--tests': 'any', '--console': ['plain', 'auto', 'rich', 'verbose'] },
    refused: [
      [/^(-I|--init-script|-c|--settings-file|-b|--build-file|-p|--project-dir|-g|--gradle-user-home)$/, CONFIG],
      [/^(-P|-D)/, 'a property can change what the build runs'],
      [/^--scan$/, 'it uploads a build scan'],
    ],
    positional: 'none',
  },
  deno: {
    name: 'deno test',
    flags: ['--fail-fast', '--parallel', '-q', '--quiet', '--no-check', '--doc', '--trace-leaks'],
    valued: { '--filter': 'any', '--reporter': ['pretty', 'dot', 'tap', 'junit'], '--seed': 'number' },
    refused: [
      [/^(--junit-path|--lock-write)$/, WRITES],
      [/^--coverage/, COVERAGE],
      [/^(-A|--allow-all|--allow-.*)$/, 'it widens what the tests may do (write, run programs)'],
      [/^--watch/, WATCH],
      [/^(-c|--config|--import-map)$/, CONFIG],
    ],
    positional: 'path',
  },
  dotnet: {
    name: 'dotnet test',
    flags: ['--no-build', '--no-restore', '--nologo'],
    valued: {
      '--filter': 'any',
      '-v': ['q', 'quiet', 'm', 'minimal', 'n', 'normal', 'd', 'detailed', 'diag', 'diagnostic'],
      '--verbosity': ['q', 'quiet', 'm', 'minimal', 'n', 'normal', 'd', 'detailed', 'diag', 'diagnostic'],
      '-c': 'any',
      '--configuration': 'any',
      '-f': 'any',
      '--framework': 'any',
      '--logger': ['console', 'console;verbosity=quiet', 'console;verbosity=minimal', 'console;verbosity=normal', 'console;verbosity=detailed'],
    },
    refused: [
      [/^(-o|--output|--results-directory|-d|--diag|--blame.*)$/, WRITES],
      [/^--collect$/, COVERAGE],
      [/^(-s|--settings|--test-adapter-path)$/, RUNS],
    ],
    positional: 'path',
  },
  mix: {
    name: 'mix test',
    flags: ['--trace', '--failed', '--warnings-as-errors'],
    valued: { '--only': 'any', '--exclude': 'any', '--include': 'any', '--max-failures': 'number', '--seed': 'number', '--timeout': 'number' },
    refused: [
      [/^(--cover|--export-coverage)$/, COVERAGE],
      [/^--listen-on-stdin$/, WATCH],
    ],
    positional: 'path',
    selector: /:\d+$/,
  },
  rspec: {
    name: 'rspec',
    flags: ['--fail-fast', '--only-failures', '--next-failure', '-b', '--backtrace', '--dry-run', '--no-color', '--force-color', '-w', '--warnings'],
    valued: {
      '-e': 'any',
      '--example': 'any',
      '-E': 'any',
      '--example-matches': 'any',
      '-t': 'any',
      '--tag': 'any',
      '-f': ['p', 'progress', 'd', 'documentation', 'j', 'json'],
      '--format': ['p', 'progress', 'd', 'documentation', 'j', 'json'],
      '--seed': 'number',
      '--order': ['defined', 'rand', 'random'],
    },
    refused: [
      [/^(-o|--out)$/, WRITES],
      [/^(-r|--require|-I|--options)$/, RUNS],
    ],
    positional: 'path',
    selector: /(:\d+)+$|\[[\d:,]+\]$/,
  },
  phpunit: {
    name: 'phpunit',
    flags: ['--testdox', '--stop-on-failure', '--stop-on-error', '--no-coverage', '-v', '--verbose', '--debug', '--fail-on-warning', '--fail-on-risky'],
    valued: { '--filter': 'any', '--testsuite': 'any', '--group': 'any', '--exclude-group': 'any' },
    refused: [
      [/^(--log-.*|--testdox-(html|text|xml)|--cache-result-file|--cache-directory|--generate-configuration|--migrate-configuration)$/, WRITES],
      [/^--coverage-/, COVERAGE],
      [/^(--bootstrap|--include-path|-d|-c|--configuration)$/, RUNS],
    ],
    positional: 'path',
  },
  make: {
    name: 'make',
    flags: ['-k', '--keep-going', '-s', '--silent', '--quiet'],
    valued: { '-j': 'number', '--jobs': 'number' },
    refused: [[/^(-C|--directory|-f|--file|--makefile|-e|--environment-overrides|-I|--include-dir)$/, CONFIG]],
    positional: 'none',
    bundles: true,
  },
  opaque: { name: 'this command', flags: [], valued: {}, refused: [], positional: 'none' },
};

export type Judgement = { ok: true } | { ok: false; reason: string };

export interface PathContext {
  root: string;
  /** The directory the command runs in. */
  base: string;
}

/** Judges the arguments given to a runner of `family`; never throws. */
export function judgeRunnerArgs(family: Family, args: readonly string[], where: PathContext): Judgement {
  if (!Object.hasOwn(FAMILIES, family)) return { ok: false, reason: `no argument table for ${String(family)}` };
  const rules = FAMILIES[family];
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--' && rules.afterDashDash) return judgeRunnerArgs(rules.afterDashDash, args.slice(i + 1), where);
    if (family === 'maven' && /^-D(test|it\.test|groups|excludedGroups|failIfNoTests|surefire\.failIfNoSpecifiedTests)=[^-]/.test(word)) continue;
    if (word.startsWith('-') && word !== '-') {
      const option = judgeOption(rules, args, i, where);
      if (!option.ok) return option;
      i += option.consumed;
      continue;
    }
    const positional = judgePositional(rules, word, positionals++, where);
    if (!positional.ok) return positional;
  }
  return { ok: true };
}

type OptionJudgement = { ok: true; consumed: number } | { ok: false; reason: string };

function judgeOption(rules: FamilyRules, args: readonly string[], i: number, where: PathContext): OptionJudgement {
  const word = args[i]!;
  const eq = word.startsWith('--') || rules.goStyle ? word.indexOf('=') : -1;
  const raw = eq === -1 ? word : word.slice(0, eq);
  const name = rules.goStyle && raw.startsWith('--') ? raw.slice(1) : raw;
  const inline = eq === -1 ? undefined : word.slice(eq + 1);
  const refusal = refusedBecause(rules, name);
  if (refusal) return refusal;
  if (rules.flags.includes(name) && inline === undefined) return { ok: true, consumed: 0 };
  const rule = Object.hasOwn(rules.valued, name) ? rules.valued[name] : undefined;
  if (rule !== undefined) {
    if (inline !== undefined) return judgeValue(name, rule, inline, 0, where);
    const next = args[i + 1];
    if (next === undefined) return { ok: false, reason: `\`${name}\` needs a value` };
    return judgeValue(name, rule, next, 1, where);
  }
  if (rules.bundles && /^-[^-]/.test(word)) return judgeBundle(rules, args, i, where);
  return { ok: false, reason: `\`${word}\` is not an option of ${rules.name} that selects tests or changes what is reported` };
}

/** `-vx`, `-kadd`, `-xk add`: letters in a row, a letter that takes a value takes the rest or the next word. */
function judgeBundle(rules: FamilyRules, args: readonly string[], i: number, where: PathContext): OptionJudgement {
  const word = args[i]!;
  for (let at = 1; at < word.length; at++) {
    const letter = `-${word[at]}`;
    const refusal = refusedBecause(rules, letter);
    if (refusal) return { ok: false, reason: `${refusal.reason} (\`${letter}\` in \`${word}\`)` };
    if (rules.flags.includes(letter)) continue;
    const rule = Object.hasOwn(rules.valued, letter) ? rules.valued[letter] : undefined;
    if (rule === undefined) return { ok: false, reason: `\`${word}\` is not an option of ${rules.name} that selects tests or changes what is reported` };
    const rest = word.slice(at + 1);
    if (rest !== '') return judgeValue(letter, rule, rest, 0, where);
    const next = args[i + 1];
    return next === undefined ? { ok: false, reason: `\`${letter}\` needs a value` } : judgeValue(letter, rule, next, 1, where);
  }
  return { ok: true, consumed: 0 };
}

function refusedBecause(rules: FamilyRules, name: string): { ok: false; reason: string } | undefined {
  const hit = rules.refused.find(([pattern]) => pattern.test(name));
  return hit ? { ok: false, reason: `\`${name}\` is refused: ${hit[1]}` } : undefined;
}

function judgeValue(name: string, rule: ValueRule, value: string, consumed: number, where: PathContext): OptionJudgement {
  if (value.startsWith('-') && !/^-\d+$/.test(value)) return { ok: false, reason: `the value of \`${name}\` may not start with \`-\` (\`${value}\`)` };
  if (rule === 'number' && !/^\d+(\.\d+)?%?$/.test(value)) return { ok: false, reason: `\`${name}\` takes a number` };
  if (Array.isArray(rule) && !rule.includes(value)) return { ok: false, reason: `\`${name}\` may only be ${rule.join(', ')} here` };
  if (rule === 'path') {
    const inside = pathInside(where.root, where.base, value.replace(/::.*$/s, ''));
    if (!inside.ok) return inside;
  }
  return { ok: true, consumed };
}

function judgePositional(rules: FamilyRules, word: string, index: number, where: PathContext): PathCheck {
  if (index === 0 && rules.subcommands?.includes(word)) return { ok: true };
  if (rules.positional === 'name') return { ok: true };
  if (rules.positional === 'none') return { ok: false, reason: `${rules.name} takes no other target or argument here (\`${word}\`)` };
  const file = rules.selector ? word.replace(rules.selector, '') : word;
  const inside = pathInside(where.root, where.base, file === '' ? '.' : file);
  if (inside.ok && rules.dotRelative && !/^\.\.?(\/|$)/.test(word)) return { ok: false, reason: `\`${word}\`: write a package of the project as ./${word}` };
  return inside;
}
