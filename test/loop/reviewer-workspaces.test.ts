/**
 * Monorepos with the real claude and the real package managers: in a workspace of two packages
 * (one passing, one failing, each `node --test`), the scripted reviewer runs one package's tests
 * and the other's through the manager's workspace forms, and is refused another script, an
 * install and a selector outside the project. The package run that passed is a focused run (one
 * workspace of two), and the reviewer's complete over the other's failing run is not accepted: the
 * failure goes back to the agent. The project is byte-identical afterwards. npm, pnpm 10 and yarn 1 (classic: its
 * `yarn workspace <name> test`), the last two this repository's dev dependencies, with its
 * `node_modules/.bin` first on PATH. Yarn berry's `workspaces foreach` and bun's `--filter` are
 * unit-tested in test/checkers/reviewer/workspace-commands.test.ts, not run here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { repoRoot } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { projectSnapshot } from '../support/project-snapshot.js';
import { bashCall, scriptedReviewer } from '../support/review-script.js';
import { jsonLines } from '../support/run-process.js';

const NODE_TEST = "const { test } = require('node:test');\nconst assert = require('node:assert');\n";
// yarn 1 ignores a workspace without a version.
const PACKAGES = {
  'packages/strings/package.json': JSON.stringify({ name: '@mono/strings', version: '1.0.0', scripts: { test: 'node --test' } }),
  'packages/strings/test/upper.test.js': `${NODE_TEST}test('upper', () => assert.strictEqual('a'.toUpperCase(), 'A'));\ntest('lower', () => assert.strictEqual('A'.toLowerCase(), 'a'));\n`,
  'packages/math/package.json': JSON.stringify({ name: '@mono/math', version: '1.0.0', scripts: { test: 'node --test' } }),
  'packages/math/test/add.test.js': `${NODE_TEST}test('adds', () => assert.strictEqual(1 + 1, 3, 'MATH-FAILS-6621'));\n`,
};

const PATH = `${path.join(repoRoot, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
const found = (command: string) => spawnSync(command, ['--version'], { encoding: 'utf8', env: { ...process.env, PATH } }).status === 0;

interface Manager {
  needs: string | undefined;
  files: Record<string, string>;
  passing: string;
  failing: string;
  refused: Record<string, string>;
}

const MANAGERS: Record<string, Manager> = {
  npm: {
    needs: found('npm') ? undefined : 'npm is not on PATH',
    files: {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], scripts: { test: 'npm test --workspaces' } }),
      ...PACKAGES,
    },
    passing: 'npm test -w packages/strings',
    failing: 'npm test --workspace=@mono/math',
    refused: {
      'npm -w @mono/strings install left-pad': 'not a verification command',
      'npm run build -w @mono/strings': 'not a verification command',
      'npm test -w ../elsewhere': 'outside',
      'npm test -w @mono/strings -- --test-update-snapshots': 'not passed on',
    },
  },
  pnpm: {
    needs: found('pnpm') ? undefined : 'pnpm is not on PATH',
    files: {
      'package.json': JSON.stringify({ name: 'mono', private: true, scripts: { test: 'pnpm -r test' } }),
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      ...PACKAGES,
    },
    passing: 'pnpm --filter @mono/strings test',
    failing: 'pnpm -F ./packages/math run test',
    refused: {
      'pnpm --filter @mono/strings add left-pad': 'not a verification command',
      'pnpm --filter ../elsewhere test': 'outside',
      'pnpm --filter @mono/strings test -- --test-update-snapshots': 'not passed on',
    },
  },
  yarn: {
    needs: found('yarn') ? undefined : 'yarn is not on PATH',
    files: {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], scripts: { test: 'yarn workspaces run test' } }),
      // How ccc tells a yarn project: its lockfile (empty: the packages have no dependencies).
      'yarn.lock': '',
      ...PACKAGES,
    },
    passing: 'yarn workspace @mono/strings test',
    failing: 'yarn workspace @mono/math run test',
    refused: {
      'yarn workspace @mono/strings add left-pad': 'not a verification command',
      'yarn workspace ../elsewhere test': 'outside',
      'yarn workspace @mono/strings test --test-update-snapshots': 'not passed on',
    },
  },
};

describe('the reviewer in a monorepo (real claude, real package managers)', () => {
  for (const [name, manager] of Object.entries(MANAGERS)) {
    it.skipIf(manager.needs !== undefined)(
      `${name}: one package's run is focused, the reviewer's complete over the other's failure is refused, writes and other scripts refused${manager.needs ? ` (skipped: ${manager.needs})` : ''}`,
      async ({ rig }) => {
        const refused = Object.keys(manager.refused);
        const calls = [manager.passing, manager.failing, ...refused];
        const reviewer = scriptedReviewer(calls.map(bashCall), { completed: true, feedback: 'strings is done' });
        const { world } = await rig.start(reviewer.scenario, { env: { PATH } });
        for (const [file, text] of Object.entries(manager.files)) {
          fs.mkdirSync(path.dirname(path.join(world.cwd, file)), { recursive: true });
          fs.writeFileSync(path.join(world.cwd, file), text);
        }
        const before = projectSnapshot(world.cwd);

        // One review: its complete over the math package's failing run is not accepted, and the limit then ends the run.
        const run = await runCcc(world, ['--supervisor', '--json', '--max-iterations', '1', '-p', 'finish the strings package'], { timeoutMs: 170_000 });
        expect(run.code, run.stderr).toBe(3);
        expect(reviewer.seen.map((s) => s.call.input.command)).toEqual(calls);
        const [passing, failing] = reviewer.seen;
        expect([passing!.isError, passing!.text]).toEqual([false, expect.stringContaining('# pass 2')]);
        expect([failing!.isError, failing!.text]).toEqual([true, expect.stringContaining('MATH-FAILS-6621')]);
        for (const [i, command] of refused.entries()) {
          const seen = reviewer.seen[2 + i]!;
          expect([command, seen.isError, seen.text]).toEqual([command, true, expect.stringContaining(manager.refused[command]!)]);
        }
        expect(projectSnapshot(world.cwd)).toEqual(before);

        // One package of two is a focused run; the other's failure, which nothing after it answered, is named and sent back.
        const verdict = jsonLines(run.stdout).find((e) => e.kind === 'verdict');
        expect(verdict).toMatchObject({ completed: false, verification: 'failed' });
        expect(verdict!.evidence).toEqual([
          { command: manager.passing, exit_code: 0, scope: 'focused', focus: 'one workspace of 2 (packages/strings)', tests: 2 },
          { command: manager.failing, exit_code: 1, failed: 1, failures: [expect.stringContaining('adds')] },
        ]);
        expect(readLog(world)).toContain(`evidence="failed: ${manager.failing} (exit 1: adds)"`);
        // The verdict's feedback, which goes back to the agent (the one-review limit ends the run here: tests of the matrix see it arrive).
        const feedback = String(verdict!.feedback);
        expect(feedback).toContain(
          `ccc did not accept the reviewer's "complete": its own run of \`${manager.failing}\` (exit 1) failed and no later run passed.`,
        );
        expect(feedback).toMatch(/Failing tests:\n- adds: .*MATH-FAILS-6621/);
      },
      180_000,
    );
  }
});
