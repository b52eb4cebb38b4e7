/**
 * Prints the plain closing line `vitest: N passed, N failed` after a run, which CI reads to know
 * how many tests ran, and above it every test CCC_TEST_SKIP skipped, by tool: a skip asked for by
 * name is shown, never silent. Also above it, every test that passed only on CI's retry: its first
 * try failed, which on a loaded machine is a race in the test or in ccc, to be found, not hidden. Before the run: the tools (scripts/test-tools.mjs) this machine lacks,
 * with their install line; a CCC_TEST_SKIP that names no tool ends the run before it starts.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { findTool, installLine, skippedTools, TOOLS } from '../../scripts/test-tools.mjs';
import { SKIP_NOTE } from './tools.js';

export default class SummaryReporter implements Reporter {
  onInit() {
    const skipped = skippedTools(); // throws on a name that is no tool
    // Said first, so a run on a machine without them is not read after many minutes of failures.
    const missing = TOOLS.filter((tool) => !skipped.includes(tool.name) && !findTool(tool));
    if (missing.length === 0) return;
    const names = missing.map((tool) => tool.name).join(',');
    process.stderr.write(
      `\nmissing: ${missing.map((tool) => `${tool.name} (${tool.why})`).join('; ')}.\nThe tests that need them fail. Install: ${installLine(missing)} (or \`npm run test:setup\`); or skip them: CCC_TEST_SKIP=${names} npm test\n\n`,
    );
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const byTool = new Map<string, string[]>();
    const retried: string[] = [];
    for (const module of testModules) {
      const file = module.moduleId.replace(`${process.cwd()}/`, '');
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed' && test.diagnostic()?.flaky) retried.push(`${file}: ${test.fullName}`);
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') failed++;
        else {
          skipped++;
          // needs() skips with a note; a test skipped at collection says it in its title (tools.ts, skipNote).
          const said = `${result.state === 'skipped' ? (result.note ?? '') : ''} ${test.name}`;
          const named = new RegExp(`${SKIP_NOTE}([\\w.,-]+)`).exec(said)?.[1];
          if (!named) continue;
          for (const tool of named.split(',')) byTool.set(tool, [...(byTool.get(tool) ?? []), `${file}: ${test.name}`]);
        }
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    for (const [tool, tests] of byTool) {
      process.stdout.write(`\nskipped by CCC_TEST_SKIP=${tool}: ${tests.length} test${tests.length > 1 ? 's' : ''}\n${tests.map((t) => `  ${t}\n`).join('')}`);
    }
    if (retried.length > 0)
      process.stdout.write(
        `\npassed only on a retry (the first try failed: a race to find): ${retried.length} test${retried.length > 1 ? 's' : ''}\n${retried.map((t) => `  ${t}\n`).join('')}`,
      );
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
