/** The fast tier leaves out every file that starts something heavy, also through a shared test body. */
import { describe, expect, it } from 'vitest';
import { repoRoot } from './claude-env.js';
import { heavyTestFiles } from './tiers.js';

describe('the test tiers', () => {
  const heavy = heavyTestFiles(repoRoot);

  it('a file that takes its claude from a shared test body is heavy, as one that imports the fixtures itself', () => {
    expect(heavy).toEqual(expect.arrayContaining(['test/loop/verification-matrix-native.test.ts', 'test/loop/interactive.test.ts']));
  });

  it('so is one that runs the real codex, a pty or a server in a support folder of its own', () => {
    expect(heavy).toEqual(expect.arrayContaining(['test/checkers/codex/codex-reviewer.test.ts', 'test/demo.test.ts', 'test/mcp/stdio-server.test.ts']));
  });

  it('a file of the loop rules through the scripted driver stays in the fast tier', () => {
    expect(heavy).not.toContain('test/loop/supervise.test.ts');
    expect(heavy).not.toContain('test/support/tiers.test.ts');
  });
});
