/**
 * The reviewer verifies real projects out of the box: one project per ecosystem (node's test
 * runner through npm, pytest, make, cargo), the real claude against the scripted
 * model server, no options. In one review the scripted reviewer runs the full suite, one file and
 * one test, sees the real runner's failure in its tool results, and is refused every write; the
 * verdict carries the commands with their exit codes and, for a passing run, the number of tests
 * its runner said ran (make's own checks print no summary: no count); the project is byte-identical afterwards
 * (cargo's build folder `target/` and pytest-benchmark's empty `.benchmarks/` aside: the runner's
 * own, made by any run). One claude session per ecosystem.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { projectSnapshot } from '../support/project-snapshot.js';
import { bashCall, scriptedReviewer } from '../support/review-script.js';
import { jsonLines, runProcess } from '../support/run-process.js';
import { needs, type ToolName } from '../support/tools.js';

/** The toolchains keep their homes when the test moves HOME into its private world. */
const TOOL_ENV: NodeJS.ProcessEnv = {
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup'),
  CARGO_HOME: process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'),
  ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}),
};

interface Expected {
  /** Text the tool result must hold (the runner's own output), and text it must not. */
  shows: string[];
  hides?: string[];
  exit: number;
  /** The number of tests the runner said ran, on the evidence of a passing run (when it says). */
  tests?: number;
}

interface Ecosystem {
  files: Record<string, string>;
  /** Run before the review (a build the runner keeps, so the review does not wait for it). */
  prepare?: string[];
  /** Folders the runner writes by design, left out of the byte-identical check. */
  buildDirs?: string[];
  runs: Record<string, Expected>;
  /** Command → part of the reason it is refused. */
  refused: Record<string, string>;
}

const NODE_TEST = "const { test } = require('node:test');\nconst assert = require('node:assert');\n";

/** Each ecosystem's project and the system tool it needs (npm is always there). */
const ECOSYSTEMS: Record<string, { tool?: ToolName; project: Ecosystem }> = {
  'npm with node --test': {
    project: {
      files: {
        'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node --test' } }),
        'test/answer.test.js': `${NODE_TEST}test('adds', () => assert.strictEqual(1 + 1, 2));\ntest('the answer', () => assert.strictEqual(6 * 7, 41, 'ANSWER-MISMATCH-7781'));\n`,
        'test/other.test.js': `${NODE_TEST}test('other passes', () => assert.ok(true));\n`,
      },
      runs: {
        'npm test': { shows: ['ANSWER-MISMATCH-7781', 'other passes'], exit: 1 },
        'npm test -- test/other.test.js': { shows: ['other passes'], hides: ['ANSWER-MISMATCH-7781'], exit: 0, tests: 1 },
        'node --test --test-name-pattern="the answer" test/answer.test.js': { shows: ['ANSWER-MISMATCH-7781'], hides: ['other passes'], exit: 1 },
      },
      refused: {
        'npm test -- --test-update-snapshots': 'updates snapshots',
        'node --test test/ > out.txt': '`>`',
        'npm test -- test/ && touch X': '`touch X` is not allowed',
      },
    },
  },
  pytest: {
    tool: 'pytest',
    project: {
      files: {
        'pytest.ini': '[pytest]\npythonpath = .\n',
        'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n',
        'tests/test_calc.py':
          'from calc import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(5, 3) == 2, "SUB-MISMATCH-4410"\n',
        'tests/test_other.py': 'def test_other():\n    assert True\n',
      },
      // pytest-benchmark, when installed (it is on this machine), makes its empty storage folder at start.
      buildDirs: ['.benchmarks'],
      runs: {
        'python3 -m pytest -q': { shows: ['SUB-MISMATCH-4410', '1 failed, 2 passed'], exit: 1 },
        'pytest -q tests/test_other.py': { shows: ['1 passed'], hides: ['SUB-MISMATCH-4410'], exit: 0, tests: 1 },
        'pytest -q tests/test_calc.py::test_sub': { shows: ['SUB-MISMATCH-4410', '1 failed'], hides: ['passed'], exit: 1 },
        'pytest -q -k add': { shows: ['1 passed, 2 deselected'], exit: 0, tests: 1 },
      },
      refused: {
        'pytest --junitxml=report.xml': 'writes a file',
        'pytest -o cache_dir=/tmp/elsewhere': 'overrides the configuration',
        'pytest -q tests/ > out.txt': '`>`',
      },
    },
  },
  make: {
    tool: 'make',
    project: {
      files: {
        Makefile: 'test:\n\t@sh checks.sh all\n\ncheck:\n\t@sh checks.sh quick\n',
        'checks.sh': 'echo "checking $1"\nif [ "$1" = all ]; then echo "MAKE-FAIL-3312: the slow check fails"; exit 1; fi\necho "quick checks pass"\n',
      },
      // make takes no file or test selection: its targets are the suites.
      runs: {
        'make test': { shows: ['MAKE-FAIL-3312'], exit: 2 },
        'make -s check': { shows: ['quick checks pass'], hides: ['MAKE-FAIL-3312'], exit: 0 },
        'make -k test': { shows: ['checking all'], exit: 2 },
      },
      refused: { 'make test CHECK=x': 'no other target', 'make -C /tmp test': 'config', 'make install': 'not a verification command' },
    },
  },
  cargo: {
    tool: 'cargo',
    project: {
      files: {
        'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/lib.rs':
          'pub fn add(a: i32, b: i32) -> i32 { a + b }\npub fn sub(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() { assert_eq!(add(2, 3), 5); }\n    #[test]\n    fn subtracts() { assert_eq!(sub(5, 3), 2, "SUB-MISMATCH-5512"); }\n}\n',
        'tests/integration.rs': '#[test]\nfn integration_adds() { assert_eq!(calc::add(1, 1), 2); }\n',
      },
      prepare: ['cargo', 'test', '--no-run', '--offline', '-q'],
      buildDirs: ['target'],
      runs: {
        'cargo test --offline': { shows: ['SUB-MISMATCH-5512', 'test result: FAILED'], exit: 101 },
        'cargo test --offline --test integration': { shows: ['integration_adds ... ok'], hides: ['SUB-MISMATCH-5512'], exit: 0, tests: 1 },
        'cargo test --offline --lib subtracts -- --exact tests::subtracts': { shows: ['SUB-MISMATCH-5512', '1 failed'], hides: ['adds ... ok'], exit: 101 },
      },
      refused: {
        'cargo test --target-dir /tmp/elsewhere': 'writes a file',
        'cargo test -- --logfile out.txt': 'writes a file',
        'cargo build': 'not a verification command',
      },
    },
  },
};

describe('the reviewer verifies real projects out of the box', () => {
  for (const [name, { tool, project }] of Object.entries(ECOSYSTEMS)) {
    it(`${name}: the full suite, one file and one test with the real runner's failure, writes refused, the project unchanged`, async ({ skip, rig }) => {
      if (tool) needs({ skip }, tool);
      const runs = Object.keys(project.runs);
      const refused = Object.keys(project.refused);
      // The whole suite fails, so a careful reviewer says not complete (ccc would refuse a complete over it).
      const reviewer = scriptedReviewer([...runs, ...refused].map(bashCall), { completed: false, feedback: 'the suite fails: fix it' });
      const server = await rig.server(reviewer.scenario);
      const world = rig.world({ server, env: { ...TOOL_ENV, CCC_SUPERVISOR_MAX_ITERATIONS: '1' } });
      writeSupervisorPrompt(world);
      for (const [file, text] of Object.entries(project.files)) {
        fs.mkdirSync(path.dirname(path.join(world.cwd, file)), { recursive: true });
        fs.writeFileSync(path.join(world.cwd, file), text);
      }
      if (project.prepare) {
        // Not spawnSync: a build that holds this worker's event loop past vitest's 60 s RPC timeout
        // on a loaded machine ends the whole run in "Timeout calling onTaskUpdate".
        const built = await runProcess(project.prepare[0]!, project.prepare.slice(1), { cwd: world.cwd, env: world.env, timeoutMs: 170_000 });
        expect(built.code, built.stderr).toBe(0);
      }
      const before = projectSnapshot(world.cwd, project.buildDirs);

      const run = await runCcc(world, ['--supervisor', '--json', '-p', 'make the tests pass'], { timeoutMs: 170_000 });
      expect(run.code, run.stderr).toBe(3); // one review, not complete: the iteration cap

      expect(reviewer.seen.map((s) => s.call.input.command)).toEqual([...runs, ...refused]);
      for (const [i, command] of runs.entries()) {
        const { shows, hides = [], exit } = project.runs[command]!;
        const seen = reviewer.seen[i]!;
        expect([command, seen.isError, exit === 0 ? '' : seen.text.split('\n')[0]]).toEqual([command, exit !== 0, exit === 0 ? '' : `Exit code ${exit}`]);
        for (const text of shows) expect([command, seen.text]).toEqual([command, expect.stringContaining(text)]);
        for (const text of hides) expect([command, seen.text]).toEqual([command, expect.not.stringContaining(text)]);
      }
      for (const [i, command] of refused.entries()) {
        const seen = reviewer.seen[runs.length + i]!;
        expect([command, seen.isError, seen.text]).toEqual([command, true, expect.stringContaining('is not allowed')]);
        expect([command, seen.text]).toEqual([command, expect.stringContaining(project.refused[command]!)]);
      }
      expect(projectSnapshot(world.cwd, project.buildDirs)).toEqual(before);

      const verdict = jsonLines(run.stdout).find((e) => e.kind === 'verdict');
      expect(verdict).toMatchObject({ completed: false, verification: 'failed' });
      expect(verdict!.evidence).toMatchObject(
        runs.map((command) => {
          const { exit, tests } = project.runs[command]!;
          return { command, exit_code: exit, ...(tests === undefined ? {} : { tests }) };
        }),
      );
    }, 180_000);
  }
});
