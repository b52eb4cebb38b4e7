/**
 * A model that answers 529 to every request: the headless run says so by name, with the status
 * and claude's own explanation, on stderr and in the session log, once claude's retries (two for
 * 529) are spent, far inside the reviewer's time limit. A review too long for the model's
 * context window (forked, then fresh) is said as that, not as a model out of reach. Exit codes stay
 * as documented.
 */
import { describe, expect } from 'vitest';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { Scenario } from '../support/model-server.js';

const overloaded = { error: { status: 529, message: 'Overloaded' } } as const;
const tooLong = { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } } as const;

describe('model API failures in a headless run', () => {
  /** The run's result, and the world it ran in (for its log). */
  async function run(rig: Rig, scenario: Scenario) {
    const { world } = await rig.start(scenario);
    // Not waiting out the model's limits (test/loop/limit-wait.test.ts waits): the failure is reported at once.
    const result = await runCcc(world, ['--supervisor', '--timeout', '120', '-p', 'do it'], { env: { CCC_SUPERVISOR_LIMIT_WAIT_MINUTES: '0' } });
    return { result, world };
  }

  it('of the reviewer: exit 4, and the message names 529 on stderr and in the log', async ({ rig }) => {
    const { result, world } = await run(rig, (r) => (r.kind === 'review' ? overloaded : { text: 'done' }));
    expect(result.code).toBe(4);
    const said = /the reviewer could not reach the model: 529 Overloaded \(after 2 retries\): Repeated 529 Overloaded errors/;
    expect(result.stderr).toMatch(said);
    expect(result.stderr).not.toMatch(/did not answer within/); // it came from claude's retries, not our time limit
    expect(readLog(world)).toMatch(said);
  });

  it('a review over the context window, forked and fresh: exit 4, said as a full context window, not as a model out of reach', async ({ rig }) => {
    const { result, world } = await run(rig, (r) => (r.kind === 'review' ? tooLong : { text: 'done' }));
    expect(result.code).toBe(4);
    const said = /the review does not fit the model's context window, neither forked nor fresh .*: 400 Bad Request: Prompt is too long/;
    expect(result.stderr).toMatch(said);
    expect(result.stderr).not.toMatch(/could not reach the model/);
    expect(readLog(world)).toMatch(said);
  });

  it("of the agent: the agent's exit code 1, and the message names 529 on stderr and in the log", async ({ rig }) => {
    const { result, world } = await run(rig, () => overloaded);
    expect(result.code).toBe(1);
    const said = /the agent could not reach the model: 529 Overloaded \(after 2 retries\): Repeated 529 Overloaded errors/;
    expect(result.stderr).toMatch(new RegExp(`ccc: error: ${said.source}`));
    expect(readLog(world)).toMatch(said);
  });
});
