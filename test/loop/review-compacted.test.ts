/**
 * Every verdict of the claude reviewer says what kind of review it was, on the real claude: the
 * first review is an ordinary fork (`review: forked`); the second fork is over the model's window
 * once, so claude compacts it and sends the review again on its summary (docs/design/claude-facts.md), and
 * that verdict says `review: compacted`: in the `--json` verdict, the progress line, the log and
 * `ccc sessions`.
 */
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { type RecordedRequest, type Reply } from '../support/model-server.js';
import { bashCall, isCompaction, reviewStep, scriptedReviewer } from '../support/review-script.js';
import { jsonLines } from '../support/run-process.js';
import type { SupervisorEvent } from '../../src/loop/events.js';
import { renderEvent } from '../../src/reporters/progress.js';
import fs from 'node:fs';
import path from 'node:path';

const tooLong: Reply = { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } };
/** How claude begins a conversation it compacted. */
const onSummary = (r: RecordedRequest) => r.text.includes('This session is being continued from a previous conversation');

describe('a forked review that claude compacted', () => {
  it('says so in its verdict: the first review forked, the second compacted', async ({ rig }) => {
    const second = scriptedReviewer([bashCall('npm test')], { completed: true, feedback: 'the tests pass' }, { text: 'Done, tests added.' });
    let overflowed = 0;
    const server = await rig.server((r) => {
      if (isCompaction(r)) return { text: 'SUMMARY-4242: the agent was asked to add tests and did.' };
      if (r.kind !== 'review') return second.scenario(r);
      if (r.lastUserText.includes('review 1 of')) return { verdict: { completed: false, feedback: 'add a test for the edge case' } };
      // The second review's first request is over the window, once; claude compacts and sends it again.
      if (reviewStep(r) === 0 && !onSummary(r) && overflowed === 0) {
        overflowed++;
        return tooLong;
      }
      return second.scenario(r);
    });
    const world = rig.world({ server });
    writeSupervisorPrompt(world);
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test' } }));
    fs.mkdirSync(path.join(world.cwd, 'test'));
    fs.writeFileSync(path.join(world.cwd, 'test', 'a.test.js'), "require('node:test')('ok', () => {});\n");
    const run = await runCcc(world, ['--supervisor', '--json', '--timeout', '120', '-p', 'add tests'], {
      env: { CCC_SUPERVISOR_LIMIT_WAIT_MINUTES: '0' },
      timeoutMs: 170_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(overflowed).toBe(1);
    expect(server.requests.some(isCompaction)).toBe(true);
    expect(server.byKind('review').filter(onSummary).length).toBeGreaterThan(0); // the review went on, on the summary
    const verdicts = jsonLines(run.stdout).filter((e) => e.kind === 'verdict');
    expect(verdicts.map((v) => [v.completed, v.review])).toEqual([
      [false, 'forked'],
      [true, 'compacted'],
    ]);
    expect(verdicts[1]).toMatchObject({ verification: 'verified' });
    const log = readLog(world);
    expect(log).toMatch(/completed=false checker=claude review=forked .*review finished/);
    expect(log).toMatch(/completed=true checker=claude review=compacted .*review finished/);
    // The progress line a run without --json prints for these verdicts.
    const lines = verdicts.map((v) => renderEvent(v as unknown as SupervisorEvent));
    expect(lines[0]).toMatch(/✗ not complete \(claude, .*, review: forked\)/);
    expect(lines[1]).toMatch(/✓ complete \(claude, verified by: npm test.*, review: compacted \(fork over the model's window, summarized by claude\)\)/);
  }, 180_000);
});
