/** The shape of a runner's rules and the reasons refusals give: shared by the runner tables. A leaf. */
import type { RunnerFamily } from '../../init/ecosystems.js';

/** A value an option takes: anything (a name, a pattern), a number, a path in the project, or one of a list. */
export type ValueRule = 'any' | 'number' | 'path' | readonly string[];

export interface FamilyRules {
  /** How the runner is named in a refusal. */
  name: string;
  flags: readonly string[];
  valued: Readonly<Record<string, ValueRule>>;
  /** Options refused with what they do; matched on the option's name (`--outputFile=x` too). */
  refused: ReadonlyArray<readonly [RegExp, string]>;
  /** Options (or subcommands) allowed for looking around with which the runner runs no test, with what it does instead: such a run verifies nothing. */
  noRun?: ReadonlyArray<readonly [RegExp, string]>;
  /** Options that run only part of the suite, with what they select (`a filter (\`-k\`)`): a passing run with one is focused. */
  selects?: ReadonlyArray<readonly [RegExp, string]>;
  /** Positional words that stand for the whole suite (go's `./...`); any other positional selects. */
  wholePositionals?: readonly string[];
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
  /** Words allowed as the first positional (vitest's `run`, `list`). */
  subcommands?: readonly string[];
  /** The runner's own commands, refused as the first positional with what they do: there it never reads them as a test path (vitest's `watch`). */
  refusedSubcommands?: ReadonlyArray<readonly [RegExp, string]>;
  /** Paths must be written relative (`./pkg/...`): Go reads `example.com/x` as another module. */
  dotRelative?: boolean;
}

export type Family = RunnerFamily | 'libtest';

export const SNAPSHOTS = 'it updates snapshots';
export const WRITES = 'it writes a file';
export const COVERAGE = 'coverage writes its data into the project';
export const RUNS = 'it loads or runs another program';
export const WATCH = 'watch mode never ends';
export const LISTS = 'it only lists the tests';
export const CONFIG = 'another config file can change what runs and where it writes';
export const FILTER = 'a name filter';
export const LAST_FAILED = 'only the tests that failed last time';
