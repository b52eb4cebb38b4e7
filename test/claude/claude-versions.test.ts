/**
 * The tested range holds together: the pinned claude is the newest tested one, the oldest supported
 * is older, and every contract test file named for the other versions exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/claude-env.js';
import { MINIMUM_CLAUDE } from '../../src/claude/claude-support.js';
import { compareVersions, NEWEST_TESTED_CLAUDE, OLDEST_SUPPORTED_CLAUDE, sinceVersion } from '../support/claude-versions.js';

const manifest = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('the claude versions the tests cover', () => {
  it('pins the newest tested claude as the devDependency, in package.json and package-lock.json', () => {
    const installed = manifest(path.join(repoRoot, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json')).version;
    expect(installed).toBe(NEWEST_TESTED_CLAUDE);
    const devDependencies = manifest(path.join(repoRoot, 'package.json')).devDependencies as Record<string, string>;
    expect(devDependencies['@anthropic-ai/claude-code']).toBe(`^${NEWEST_TESTED_CLAUDE}`);
    const lock = manifest(path.join(repoRoot, 'package-lock.json')).packages as Record<string, { version: string }>;
    expect(lock['node_modules/@anthropic-ai/claude-code']?.version).toBe(NEWEST_TESTED_CLAUDE);
    expect(compareVersions(OLDEST_SUPPORTED_CLAUDE, NEWEST_TESTED_CLAUDE)).toBeLessThan(0);
    // The contract tests' oldest is the minimum ccc refuses below.
    expect(OLDEST_SUPPORTED_CLAUDE).toBe(MINIMUM_CLAUDE);
  });

  it('names contract test files that exist, each once', () => {
    const { files } = manifest(path.join(repoRoot, 'test', 'support', 'contract-tests.json')) as { files: string[] };
    expect(new Set(files).size).toBe(files.length);
    for (const file of files) expect(fs.existsSync(path.join(repoRoot, file)), file).toBe(true);
  });

  it('orders versions by number, not as text', () => {
    expect(compareVersions('2.1.332', '2.1.40')).toBeGreaterThan(0);
    expect(compareVersions('2.1.309', '2.1.309')).toBe(0);
    expect(
      sinceVersion(
        [
          ['2.1.0', 'a'],
          ['2.1.331', 'b'],
        ] as const,
        '2.1.330',
      ),
    ).toBe('a');
    expect(
      sinceVersion(
        [
          ['2.1.0', 'a'],
          ['2.1.331', 'b'],
        ] as const,
        '2.1.332',
      ),
    ).toBe('b');
  });
});
