/**
 * Monorepos: the reviewer may run the test script of some packages with the workspace forms of the
 * detected package manager, and turbo's or nx's test task when the repository has their config;
 * other scripts, writing commands, selectors outside the project and arguments for the packages'
 * unknown runners are refused. Detection and `ccc config` name them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reviewerPolicyLines } from '../../../src/checkers/reviewer/policy-text.js';
import { decideToolUse, reviewerPolicy, verificationOf } from '../../../src/checkers/reviewer/reviewer-policy.js';
import { detectTests } from '../../../src/init/ecosystems.js';
import { memoryProjectFiles } from '../../../src/init/project-files.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-workspaces-')));
fs.mkdirSync(path.join(root, 'packages', 'a'), { recursive: true });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const policyFor = (files: Record<string, string>) => reviewerPolicy({ root, tests: detectTests(memoryProjectFiles(files)), ruleCommands: [], allow: [] });
const judge = (policy: ReturnType<typeof policyFor>, command: string) => decideToolUse(policy, 'Bash', { command }, root);
const root_pkg = (extra: Record<string, unknown>) => JSON.stringify({ name: 'mono', private: true, scripts: { test: 'node --test' }, ...extra });

interface Case {
  files: Record<string, string>;
  allowed: string[];
  refused: Record<string, string>;
}

const CASES: Record<string, Case> = {
  'npm workspaces': {
    files: { 'package.json': root_pkg({ workspaces: ['packages/*'] }), 'package-lock.json': '' },
    allowed: [
      'npm test -w packages/a',
      'npm test --workspace=@mono/strings',
      'npm -w a test',
      'npm run test --workspaces --if-present',
      'npm test -ws',
      'npm test -w a --',
      'cd packages/a && npm test -w .',
    ],
    refused: {
      'npm -w a install': 'not a verification command',
      'npm run build -w a': 'not a verification command',
      'npm test -w ../other': 'outside',
      'npm test -w a -- --test-update-snapshots': 'not passed on',
      'npm test -w a --foreground-scripts': 'is not an option',
    },
  },
  'pnpm workspace': {
    files: { 'package.json': root_pkg({}), 'pnpm-workspace.yaml': 'packages:\n  - packages/*\n', 'pnpm-lock.yaml': '' },
    allowed: [
      'pnpm --filter @mono/strings test',
      'pnpm -F a test',
      'pnpm -r test',
      'pnpm --filter ./packages/a run test',
      'pnpm test --filter "{packages/a}..."',
      'pnpm --filter=a... test',
    ],
    refused: {
      'pnpm --filter a add x': 'not a verification command',
      'pnpm --filter a build': 'not a verification command',
      'pnpm --filter ../elsewhere test': 'outside',
      'pnpm --filter a test -- -u': 'not passed on',
    },
  },
  'yarn workspaces': {
    files: { 'package.json': root_pkg({ workspaces: ['packages/*'] }), 'yarn.lock': '' },
    allowed: [
      'yarn workspace a test',
      'yarn workspace @mono/strings run test',
      'yarn workspaces foreach -A run test',
      'yarn workspaces foreach --include a -p -v run test',
      'yarn workspaces run test',
    ],
    refused: {
      'yarn workspace a add left-pad': 'not a verification command',
      'yarn workspaces foreach -A run build': 'not a verification command',
      'yarn workspace a test --watch': 'not passed on',
      'yarn workspaces foreach --from ../x run test': 'outside',
    },
  },
  'bun workspaces': {
    files: { 'package.json': root_pkg({ workspaces: ['packages/*'] }), 'bun.lock': '' },
    allowed: ['bun run --filter a test', 'bun --filter ./packages/a run test'],
    refused: { 'bun --filter a install': 'not a verification command', 'bun run --filter a build': 'not a verification command' },
  },
  turbo: {
    files: { 'package.json': root_pkg({ workspaces: ['packages/*'] }), 'package-lock.json': '', 'turbo.json': '{}' },
    allowed: ['npx turbo run test', 'turbo run test --filter a', 'turbo test -F @mono/strings --continue', 'npx turbo run test --filter=./packages/a'],
    refused: {
      'turbo run build': 'not a verification command',
      'turbo run test --graph=out.html': 'not an option',
      'turbo run test --dry-run': 'not an option',
      'turbo run test --filter ../x': 'outside',
    },
  },
  nx: {
    files: { 'package.json': root_pkg({}), 'package-lock.json': '', 'nx.json': '{}' },
    allowed: ['npx nx run-many -t test', 'nx run-many --target=test -p a', 'nx test a', 'nx run a:test', 'nx affected -t test'],
    refused: {
      'nx run-many -t build': 'not a verification command',
      'nx run a:build': 'not a verification command',
      'nx test a --graph=x.html': 'not an option',
    },
  },
};

describe('monorepo workspace forms', () => {
  for (const [name, { files, allowed, refused }] of Object.entries(CASES)) {
    it(`${name}: selecting packages runs their test script; other scripts, writes, selectors outside and runner arguments are refused`, () => {
      const policy = policyFor(files);
      for (const command of allowed) expect([command, judge(policy, command)]).toEqual([command, expect.objectContaining({ allow: true, verifies: true })]);
      for (const [command, reason] of Object.entries(refused))
        expect([command, judge(policy, command)]).toEqual([command, expect.objectContaining({ allow: false, reason: expect.stringContaining(reason) })]);
      // What ran is read as a script whose runner ccc does not know.
      expect(verificationOf(policy, allowed[0]!)).toMatchObject({ verifies: true, exitCodeCounts: true, runs: [{ family: 'opaque', args: [] }] });
    });
  }

  it('a project without workspaces keeps refusing them', () => {
    const policy = policyFor({ 'package.json': root_pkg({}), 'pnpm-lock.yaml': '' });
    expect(judge(policy, 'pnpm --filter a test')).toMatchObject({ allow: false });
    expect(judge(policy, 'pnpm test')).toMatchObject({ allow: true });
  });

  it('detection: a root without a test script runs every package; turbo and nx are listed; ccc config names them', () => {
    expect(detectTests(memoryProjectFiles({ 'package.json': JSON.stringify({ workspaces: ['packages/*'] }) })).map((t) => t.command)).toEqual([
      'npm test --workspaces --if-present',
    ]);
    expect(detectTests(memoryProjectFiles({ 'package.json': '{}', 'pnpm-workspace.yaml': 'packages: []' })).map((t) => t.command)).toEqual(['pnpm -r test']);
    const tests = detectTests(memoryProjectFiles(CASES.turbo!.files));
    expect(tests.map((t) => t.command)).toEqual(['npm test', 'npx turbo run test']);
    const lines = reviewerPolicyLines({ tests, ruleCommands: [], allow: [] }).join('\n');
    expect(lines).toContain('packages of the workspace: npm test -w <workspace>, npm test --workspaces)');
    expect(lines).toContain('packages of the workspace: turbo run test --filter <package>)');
    expect(lines).toContain('turbo.json (Turborepo)');
  });
});
