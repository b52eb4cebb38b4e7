/**
 * The whole story, headless, with the real claude: the agent claims it is done while the project's
 * test fails; the reviewer runs the test itself and quotes the failure; the agent fixes it; the
 * reviewer runs the test again and confirms, verified by that run. Exit 0, and the summary says what
 * the reviews cost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn, type RecordedRequest, type Reply } from '../support/model-server.js';
import { lastToolResults, reviewStep } from '../support/review-script.js';

describe('the reviewer that verifies (headless story)', () => {
  it('catches a false "done" by running the test, the agent fixes it, the reviewer re-runs the test and confirms', async ({ rig }) => {
    // The scripted agent writes into the world, which is made after its server.
    let world: ClaudeWorld | undefined;
    const testResults: string[] = [];
    const reviewer = (r: RecordedRequest): Reply => {
      if (reviewStep(r) === 0)
        return {
          toolUse: { name: 'Bash', input: { command: 'npm test 2>&1', description: 'run the tests' } },
          usage: { input_tokens: 80, cache_read_input_tokens: 12000 },
        };
      const output = lastToolResults(r)[0]?.text ?? '';
      testResults.push(output);
      const failure = /FAIL answer: [^'\n]*/.exec(output)?.[0];
      return failure
        ? {
            verdict: { completed: false, feedback: `npm test fails: ${failure}. Make answer.txt contain 42, then run npm test.` },
            usage: { input_tokens: 90, cache_read_input_tokens: 12100 },
          }
        : { verdict: { completed: true, feedback: 'npm test passes.' }, usage: { input_tokens: 90, cache_read_input_tokens: 12100 } };
    };
    const agent = (r: RecordedRequest): Reply => {
      if (isToolResultTurn(r)) return { text: 'Fixed: answer.txt now holds 42.' };
      if (r.lastUserText.includes('npm test fails')) {
        return { toolUse: { name: 'Write', input: { file_path: path.join(world!.cwd, 'answer.txt'), content: '42\n' } } };
      }
      return { text: 'All done, everything works.' };
    };
    const started = await rig.start((r) => (r.kind === 'review' ? reviewer(r) : agent(r)));
    const { server } = started;
    world = started.world;
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'story', scripts: { test: 'node --test' } }));
    fs.mkdirSync(path.join(world.cwd, 'test'));
    fs.writeFileSync(
      path.join(world.cwd, 'test', 'answer.test.js'),
      "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst fs = require('fs');\n" +
        "test('answer', () => {\n  const got = fs.existsSync('answer.txt') ? fs.readFileSync('answer.txt', 'utf8').trim() : '(missing)';\n" +
        "  assert.strictEqual(got, '42', `FAIL answer: expected 42, got ${got}`);\n});\n",
    );

    const run = await runCcc(world, ['--supervisor', '-p', 'make npm test pass', '--', '--allowedTools', 'Write']);
    expect(run.code).toBe(0);
    // The reviewer ran the test twice and saw first the failure, then the pass.
    expect(testResults).toHaveLength(2);
    expect(testResults[0]).toContain('FAIL answer: expected 42, got (missing)');
    expect(testResults[1]).toContain('# pass 1');
    // Its feedback quoted the failure, and reached the agent as its next message.
    const agentRequests = server.byKind('agent');
    expect(agentRequests.some((r) => r.lastUserText.includes('npm test fails: FAIL answer: expected 42, got (missing)'))).toBe(true);
    expect(fs.readFileSync(path.join(world.cwd, 'answer.txt'), 'utf8')).toBe('42\n');
    // Each verdict says what it rests on: the test run the reviewer made, with its exit code, its failing test, its count.
    expect(run.stderr).toContain('✗ not complete (claude, failed: npm test 2>&1 (exit 1: answer), $');
    expect(run.stderr).toMatch(/✓ complete \(claude, verified by: npm test 2>&1 \(1 test\), \$[\d.]+, 99% cached, review: forked\)/);
    // Two reviews of two requests each: 48,200 of 48,540 input tokens read from the cache.
    expect(run.stderr).toMatch(/^ccc: 2 reviews, \$\d+\.\d+, 99% of review input read from cache; spent \$\d+\.\d+ in all$/m);
  });
});
