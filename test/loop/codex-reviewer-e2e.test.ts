/**
 * Headless runs (`ccc --supervisor -p`) reviewed by the real codex against the scripted Responses
 * API, the agent being the real claude against the scripted Messages API: what a user sees at the
 * end of a run left alone. A rate limit on the codex review is waited out and the same stop is
 * reviewed again; an API error fails the review (exit 4); and with both reviewers and the
 * agreement rule, a run where they disagree is not complete and every report says which said what.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, onTestFinished } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { codexEnv, needsCodexSandbox, writeNodeProject } from '../support/codex-env.js';
import { it, type Rig } from '../support/fixtures.js';
import type { Reply } from '../support/model-server.js';
import { startResponsesServer, type ResponsesReply, type ResponsesRequest } from '../support/responses-server.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

describe('the codex reviewer in a headless run', () => {
  beforeAll(needsCodexSandbox, 60_000);
  /** The rig's Messages server and world, with codex pointed at a scripted Responses server of its own (closed after the test). */
  async function setup(
    rig: Rig,
    options: { config: Record<string, unknown>; codex: (r: ResponsesRequest) => ResponsesReply; claudeReview?: Reply; addWorks: boolean },
  ) {
    const { server: models, world } = await rig.start((r) =>
      r.kind === 'review'
        ? (options.claudeReview ?? { verdict: { completed: true, feedback: 'ok' } })
        : { text: r.index === 0 ? 'Done: add adds.' : 'I will look again.' },
    );
    const codex = await startResponsesServer(options.codex);
    onTestFinished(() => codex.close());
    Object.assign(world.env, codexEnv(world.home, codex.url));
    writeNodeProject(world.cwd, { addWorks: options.addWorks });
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify(options.config));
    return { models, world };
  }

  it('a rate limit on the review is waited out, the same stop reviewed again: verified, exit 0, cost said unknown', async ({ rig }) => {
    // Every request of the first review (codex's own retries included) is refused; the review after ccc's wait goes through.
    let first: string | undefined;
    let answered = 0;
    const codexScenario = (r: ResponsesRequest): ResponsesReply => {
      first ??= r.threadId;
      if (r.threadId === first) return { error: { status: 429, message: 'Rate limit reached for requests', code: 'rate_limit_exceeded', type: 'requests' } };
      return answered++ === 0 ? { commands: ['npm test'] } : { verdict: { completed: true, feedback: 'add adds' } };
    };
    const { models, world } = await setup(rig, { config: { supervisor: { checkers: ['codex'] } }, codex: codexScenario, addWorks: true });
    const run = await runCcc(world, ['--supervisor', '-p', 'make add add'], { env: { CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '1' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/the codex reviewer was rate limited by the model's API: exceeded retry limit, last status: 429 Too Many Requests/);
    expect(run.stderr).toMatch(/waiting on the model's limit until \d\d:\d\d:\d\d \(in 1 s\), then resuming the review/);
    expect(run.stderr).toMatch(/✓ complete \(codex, verified by: npm test \(1 test\), \$0\.000 \+ unknown \([\d,]+ tokens unpriced\)/);
    expect(run.stderr.match(/waiting on the model's limit/g)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/review 2\/20/); // the refused review was not counted
    expect(models.byKind('agent')).toHaveLength(1);
  }, 180_000);

  it('an API error fails the review: exit 4, said by name', async ({ rig }) => {
    const unauthorized: ResponsesReply = {
      error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key', type: 'invalid_request_error' },
    };
    const { world } = await setup(rig, { config: { supervisor: { checkers: ['codex'] } }, codex: () => unauthorized, addWorks: true });
    const run = await runCcc(world, ['--supervisor', '-p', 'make add add']);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/the codex reviewer could not reach the model: unexpected status 401 Unauthorized: Incorrect API key provided/);
  }, 180_000);

  it("checkers ['claude', 'codex'] must agree: a run where they disagree is not complete, and every report says which said what", async ({ rig }) => {
    const reviewed = new Set<string>();
    const { models, world } = await setup(rig, {
      config: { supervisor: { checkers: ['claude', 'codex'], agreement: 'all', max_iterations: 2, wind_down: false } },
      claudeReview: { verdict: { completed: true, feedback: 'CLAUDE-SAYS-81: looks done' } },
      codex: (r) =>
        // Each review (a thread of its own) runs the tests first, then answers.
        reviewed.has(r.threadId ?? '')
          ? { verdict: { completed: false, feedback: 'CODEX-SAYS-93: test adds fails, add(2, 3) is -1' } }
          : (reviewed.add(r.threadId ?? ''), { commands: ['npm test'] }),
      addWorks: false,
    });
    const summary = path.join(world.root, 'summary.md');
    const receiver = await startWebhookReceiver();
    onTestFinished(() => receiver.close());
    const run = await runCcc(
      world,
      ['--supervisor', '--json', '-p', 'make add add', '--report', 'github', '--report', 'junit=junit.xml', '--report', 'events=events.jsonl'],
      {
        env: { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: path.join(world.root, 'output'), CCC_NOTIFY_WEBHOOK_URL: receiver.url('/hook') },
      },
    );
    expect(run.code, run.stderr).toBe(3); // the iteration limit ended the run without completion, after two disagreements
    const said = 'The reviewers disagree: claude found the work complete, codex did not';
    // The agent's next message, the progress line, the event log, the job summary and JUnit.
    const agent = models.byKind('agent');
    expect(agent[1]!.lastUserText).toContain(said);
    expect(agent[1]!.lastUserText).toContain('- claude: complete (unverified): CLAUDE-SAYS-81');
    expect(agent[1]!.lastUserText).toMatch(/- codex: not complete \(failed: npm test \(exit 1: \S*test\/add\.test\.js\)\): CODEX-SAYS-93/);
    expect(run.stderr).toContain(said);
    const events = fs
      .readFileSync(path.join(world.cwd, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const verdicts = events.filter((e) => e.kind === 'verdict');
    expect(verdicts).toHaveLength(2);
    for (const verdict of verdicts)
      expect(verdict).toMatchObject({
        completed: false,
        checker: 'codex',
        opinions: [
          { checker: 'claude', completed: true },
          { checker: 'codex', completed: false },
        ],
      });
    // The job summary escapes Markdown's punctuation (`\:`): read as a person reads it.
    expect(fs.readFileSync(summary, 'utf8').replace(/\\([^\w\s])/g, '$1')).toContain(said);
    expect(fs.readFileSync(path.join(world.cwd, 'junit.xml'), 'utf8')).toContain(said);
    // --json: the same verdicts on stdout.
    const jsonVerdicts = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.kind === 'verdict');
    expect(jsonVerdicts.map((v) => v.feedback)).toEqual(verdicts.map((v) => v.feedback));
    // ccc report over the event log: the row says who said what.
    const report = await runCcc(world, ['report', path.join(world.cwd, 'events.jsonl')]);
    expect(report.stdout).toContain('❌ failed (claude: complete, codex: not complete)');
    const table = JSON.parse((await runCcc(world, ['report', '--format', 'json', path.join(world.cwd, 'events.jsonl')])).stdout) as {
      runs: Array<{ reviewers: unknown }>;
    };
    expect(table.runs[0]!.reviewers).toEqual([
      { checker: 'claude', completed: true },
      { checker: 'codex', completed: false },
    ]);
    // The notification (the iteration limit, the run's ending): who said what, as lines and as fields.
    await expect.poll(() => receiver.json().length).toBeGreaterThan(0);
    const [note, ...more] = receiver.json();
    expect(more).toEqual([]);
    expect(note).toMatchObject({
      event: 'cap',
      reason: 'limit',
      reviewer: 'codex',
      opinions: [
        { checker: 'claude', completed: true, verification: 'unverified' },
        { checker: 'codex', completed: false, verification: 'failed' },
      ],
    });
    expect(note!.text).toContain(`Last feedback: ${said}`);
    expect(note!.text).toContain('claude: complete (unverified): CLAUDE-SAYS-81');
    expect(note!.text).toMatch(/codex: not complete \(failed: npm test \(exit 1: \S*test\/add\.test\.js\)\): CODEX-SAYS-93/);
  }, 180_000);
});
