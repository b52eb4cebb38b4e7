/**
 * The two tiers of the suite. The fast tier (`npm run test:fast`, vitest.fast.config.ts) is every
 * test file that drives nothing heavy: no real claude, no pty, no Chromium, no built `dist/`, no
 * system tool (test/support/tools.ts). Those files run in seconds, need no build and, on the shared
 * machine, no heavy lock. A file is told by what it uses, read from its source: a new test that
 * starts claude through the support modules is in the full suite only, without a list to keep.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What a heavy file names: the support modules that start claude, a pty, Chromium or `dist/`, or a tool it needs. */
const HEAVY =
  /support\/(fixtures|pty-harness|job-shell|ccc-run|chromium|github-runner|npm-registry|fresh-review-project|mcp-process)\.js|\b(claudeBin|cccBin|makeClaudeWorld|needs)\b|\bdist\/|'dist'/;

/** The heavy test files under `root`/test, as paths relative to `root`. */
export function heavyTestFiles(root: string): string[] {
  const test = path.join(root, 'test');
  return fs
    .readdirSync(test, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && HEAVY.test(fs.readFileSync(path.join(test, file), 'utf8')))
    .map((file) => path.join('test', file))
    .sort();
}
