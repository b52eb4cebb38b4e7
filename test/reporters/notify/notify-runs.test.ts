/**
 * A run left alone tells a person: real `ccc --supervisor -p` runs of the real claude against the
 * scripted model server, with a real HTTP webhook receiver and a stand-in `notify-send` on PATH.
 * One message per happening: the end with its verdict word, stuck, a wait on the model's limit
 * (until when), a cap. A webhook that hangs or answers 500 changes neither the run's outcome nor
 * its timing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { claudeBin } from '../../support/claude-env.js';
import { it, type Rig } from '../../support/fixtures.js';
import { runProcess, type ProcessResult } from '../../support/run-process.js';
import { readLog, runCcc } from '../../support/ccc-run.js';
import { rateLimited } from '../../support/limit-replies.js';
import type { RecordedRequest, Reply } from '../../support/model-server.js';
import { reviewStep } from '../../support/review-script.js';
import { standInNotifySend, startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '../../support/webhook-receiver.js';

/** The reviewer runs the project's tests (`npm test`: node's runner, one passing test), then confirms. */
function verifyingReviewer(r: RecordedRequest): Reply {
  if (reviewStep(r) === 0) return { toolUse: { name: 'Bash', input: { command: 'npm test', description: 'run the tests' } } };
  return { verdict: { completed: true, feedback: 'the tests pass' } };
}

function nodeProject(cwd: string): void {
  fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test' } }));
  fs.mkdirSync(path.join(cwd, 'test'));
  fs.writeFileSync(path.join(cwd, 'test', 'a.test.js'), "const test = require('node:test');\ntest('adds', () => {});\n");
}

/** A webhook receiver that answers `answer`, closed after the test (the rig knows no receivers: only this file uses one). */
async function receiverForTest(answer?: ReceiverAnswer): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(answer);
  onTestFinished(() => receiver.close());
  return receiver;
}

describe('notifications of a headless run', () => {
  async function setup(rig: Rig, scenario: (r: RecordedRequest) => Reply, answer: ReceiverAnswer = { status: 200 }) {
    const { world } = await rig.start(scenario);
    nodeProject(world.cwd);
    const receiver = await receiverForTest(answer);
    /** The run, with the webhook (`json` by its host) and `env` on top. */
    const run = (env: NodeJS.ProcessEnv = {}, task = 'add the adder') =>
      runCcc(world, ['--supervisor', '-p', task], { env: { CCC_NOTIFY_WEBHOOK_URL: receiver.url('/secret-path-4471'), ...env } });
    return { world, receiver, run };
  }

  it('end, verified: one message with the word, the evidence, the cost and the exit code; the desktop stand-in gets it too', async ({ rig }) => {
    const { world, receiver, run } = await setup(rig, (r) => (r.kind === 'review' ? verifyingReviewer(r) : { text: 'added it' }));
    const desktop = standInNotifySend(world.root, fs, path);
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ notify: { desktop: true } }));
    const result = await run({ PATH: `${desktop.bin}:${world.env.PATH}` });
    expect(result.code, result.stderr).toBe(0);
    expect(receiver.json()).toMatchObject([
      {
        event: 'end',
        outcome: 'verified',
        project: 'project',
        task: 'add the adder',
        evidence: expect.stringMatching(/^verified by: npm test/),
        exit_code: 0,
        spent_usd: expect.any(Number),
        title: 'ccc: done, verified (project)',
      },
    ]);
    expect(receiver.json()[0]!.text).toMatch(/Cost: spent \$/);
    expect(receiver.requests[0]!.path).toBe('/secret-path-4471');
    // The stand-in notify-send: the title and the body as arguments.
    expect(desktop.calls()).toEqual([
      ['--app-name=ccc', '--urgency=normal', 'ccc: done, verified (project)', expect.stringMatching(/^Task: add the adder\nEvidence: verified by: npm test/)],
    ]);
    // The URL is a credential: nowhere in what ccc printed or logged.
    expect(result.stderr + result.stdout + readLog(world)).not.toContain('secret-path-4471');
  }, 120_000);

  it('end, unverified: a reviewer that ran nothing says complete', async ({ rig }) => {
    const { receiver, run } = await setup(rig, (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'looks fine' } } : { text: 'added it' }));
    const result = await run();
    expect(result.code, result.stderr).toBe(0);
    expect(receiver.json()).toMatchObject([{ event: 'end', outcome: 'unverified', title: expect.stringContaining('unverified') }]);
  }, 120_000);

  it('stuck: the same feedback three times over an unchanged tree; one message, none for the end after it', async ({ rig }) => {
    const { receiver, run } = await setup(rig, (r) =>
      r.kind === 'review' ? { verdict: { completed: false, feedback: 'the adder is still missing' } } : { text: 'working on it' },
    );
    const result = await run();
    expect(result.code).toBe(3);
    expect(receiver.json()).toMatchObject([
      {
        event: 'stuck',
        reason: 'no-progress',
        title: 'ccc: stuck, no progress (project)',
        text: expect.stringContaining('Last feedback: the adder is still missing'),
      },
    ]);
  }, 180_000);

  it('cap: the iteration limit, told at the wind-down, once', async ({ rig }) => {
    const asks = ['add the tests', 'fix the edge case', 'document it'];
    const { receiver, run } = await setup(rig, (r) =>
      r.kind === 'review' ? { verdict: { completed: false, feedback: asks[r.index] ?? 'more' } } : { text: `turn ${r.index}` },
    );
    const result = await run({ CCC_SUPERVISOR_MAX_ITERATIONS: '2' });
    expect(result.code).toBe(3);
    expect(receiver.json()).toMatchObject([{ event: 'cap', reason: 'limit', title: 'ccc: reached its iteration limit (project)' }]);
  }, 180_000);

  it('cap: the cost cap', async ({ rig }) => {
    const { receiver, run } = await setup(rig, (r) =>
      r.kind === 'review'
        ? { verdict: { completed: false, feedback: `not yet ${r.index}` }, usage: { input_tokens: 10, output_tokens: 5 } }
        : { text: `turn ${r.index}`, usage: { input_tokens: 1_000_000, output_tokens: 0 } },
    );
    const result = await run({ CCC_SUPERVISOR_MAX_COST_USD: '0.5' });
    expect(result.code).toBe(3);
    expect(receiver.json()).toMatchObject([{ event: 'cap', reason: 'cost-cap', cap_usd: 0.5, title: 'ccc: reached its cost cap (project)' }]);
  }, 180_000);

  it("waiting: the model's limit, with until when; then the end", async ({ rig }) => {
    const { receiver, run } = await setup(rig, (r) =>
      r.kind === 'agent' && r.index < 2 ? rateLimited() : r.kind === 'review' ? verifyingReviewer(r) : { text: 'added it' },
    );
    const result = await run({ CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '1' });
    expect(result.code, result.stderr).toBe(0);
    const [waiting, end, ...more] = receiver.json();
    expect(more).toEqual([]); // the second refusal of the same series is not news
    expect(waiting).toMatchObject({ event: 'waiting', title: expect.stringMatching(/^ccc: waiting on the model's limit until \d\d:\d\d \(project\)$/) });
    expect(Date.parse(waiting!.until as string)).toBeGreaterThan(Date.parse(waiting!.at as string));
    expect(waiting!.text).toMatch(/rate limited/);
    expect(end).toMatchObject({ event: 'end', outcome: 'verified' });
  }, 120_000);

  // The same run without a webhook, for the outcome both webhooks must leave alone: run once, by the
  // first of them that runs, in its world (the same project, task and scripted replies in each).
  let plain: Promise<ProcessResult> | undefined;
  for (const answer of ['hang', { status: 500 }] as const) {
    const what = answer === 'hang' ? 'hangs' : 'answers 500';
    it(`a webhook that ${what} changes nothing: the same exit code and output as without one, and the run ends long before the webhook's own timeout`, async ({
      rig,
    }) => {
      const { world, receiver, run } = await setup(rig, (r) => (r.kind === 'review' ? verifyingReviewer(r) : { text: 'added it' }), answer);
      // The webhook's own timeout is the longest allowed (60 s); at its end the run waits FLUSH_MS
      // (2 s) at most for it, as its warning says, never the webhook's timeout.
      fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ notify: { webhook_timeout_seconds: 60 } }));
      // The same run without a webhook (an empty variable is unset), for its outcome.
      const without = await (plain ??= run({ CCC_NOTIFY_WEBHOOK_URL: '' }, 'add the adder'));
      const result = await run();
      expect(result.code, result.stderr).toBe(without.code);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(without.stdout);
      expect(result.stderr).toMatch(/✓ complete \(claude, verified by: npm test/);
      expect(receiver.requests).toHaveLength(1); // it was asked
      expect(result.stderr).toMatch(
        answer === 'hang'
          ? /ccc: WARN: webhook http:\/\/127\.0\.0\.1:\d+\/…: 1 notification\(s\) still unsent when the run ended \(waited 2000 ms\); dropped/
          : /ccc: WARN: webhook http:\/\/127\.0\.0\.1:\d+\/…: the "end" notification was not delivered: answered 500/,
      );
      expect(result.stderr + readLog(world)).not.toContain('secret-path-4471');
    }, 180_000);
  }
});

describe("notifications in the other modes, reporters of one's own, and the URL kept secret", () => {
  it('the standalone hook (`ccc hook install`, plain claude): the confirmed completion is told', async ({ rig }) => {
    const { world } = await rig.start((r) => (r.kind === 'review' ? verifyingReviewer(r) : { text: 'added it' }));
    nodeProject(world.cwd);
    const receiver = await receiverForTest();
    expect((await runCcc(world, ['hook', 'install'])).code).toBe(0);
    const env = { ...world.env, CCC_NOTIFY_WEBHOOK_URL: receiver.url('/secret-path-4471') };
    const result = await runProcess(claudeBin, ['-p', 'add the adder'], { cwd: world.cwd, env });
    expect(result.code, result.stderr).toBe(0);
    expect(receiver.json()).toMatchObject([{ event: 'end', outcome: 'verified', evidence: expect.stringMatching(/^verified by: npm test/) }]);
    expect(readLog(world)).not.toContain('secret-path-4471');
  }, 120_000);

  it("a reporter module of the user's hears a --json run; its console output never reaches stdout", async ({ rig }) => {
    const { world } = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'fine' } } : { text: 'added it' }));
    const heard = path.join(world.root, 'heard.jsonl');
    fs.writeFileSync(
      path.join(world.cwd, 'my-reporter.ts'),
      `import fs from 'node:fs';
       export default class {
         onEvent(e: { kind: string }) { console.log('NOT-JSON ' + e.kind); fs.appendFileSync(${JSON.stringify(heard)}, e.kind + '\\n'); }
         close(end: { exitCode?: number }) { fs.appendFileSync(${JSON.stringify(heard)}, 'close ' + end.exitCode + '\\n'); }
       }`,
    );
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ reporters: ['./my-reporter.ts'] }));
    const result = await runCcc(world, ['--supervisor', '--json', '-p', 'add the adder']);
    expect(result.code, result.stderr).toBe(0);
    for (const line of result.stdout.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const kinds = fs.readFileSync(heard, 'utf8').trim().split('\n');
    expect(kinds).toEqual(expect.arrayContaining(['start', 'verdict', 'end', 'close 0']));
    expect(kinds.at(-1)).toBe('close 0');
    expect(readLog(world)).toContain('reporter "./my-reporter.ts" wrote to stdout: NOT-JSON start');
  }, 120_000);

  it('a reporter that is not there: exit 2 before claude starts', async ({ rig }) => {
    const { server, world } = await rig.start(() => ({ text: 'x' }));
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ reporters: ['notify', './gone.ts'] }));
    const result = await runCcc(world, ['--supervisor', '-p', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Reporter "\.\/gone\.ts" does not exist/);
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('`ccc config` (text and --json) and a config error show the webhook by its host only', async ({ rig }) => {
    const world = rig.world();
    const url = 'https://hooks.slack.com/services/T000/B000/secret-path-4471';
    const text = await runCcc(world, ['config'], { env: { CCC_NOTIFY_WEBHOOK_URL: url } });
    expect(text.stdout).toMatch(/notify\.webhook_url\s+=\s+"https:\/\/hooks\.slack\.com\/…"\s+\(env: CCC_NOTIFY_WEBHOOK_URL\)/);
    const json = await runCcc(world, ['config', '--json'], { env: { CCC_NOTIFY_WEBHOOK_URL: url } });
    expect(JSON.parse(json.stdout)).toMatchObject({ notify: { webhook_url: 'https://hooks.slack.com/…' } });
    const badEnv = await runCcc(world, ['config'], { env: { CCC_NOTIFY_WEBHOOK_URL: 'ftp://files.example/secret-path-4471' } });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('CCC_NOTIFY_WEBHOOK_URL=ftp://files.example/…: must be an http:// or https:// URL');
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ notify: { webhook_url: 'not a url secret-path-4471' } }));
    const badFile = await runCcc(world, ['config']);
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toMatch(/notify\.webhook_url = "\(a URL, hidden\)" .*must be an http:\/\/ or https:\/\/ URL/);
    expect(text.stdout + json.stdout + badEnv.stderr + badFile.stderr).not.toContain('secret-path-4471');
  }, 60_000);
});

describe('notifications of an interactive session', () => {
  it('the confirmed completion is told while the session stays open; no-progress after a second task is told as stuck', async ({ rig }) => {
    const receiver = await receiverForTest();
    const url = receiver.url('/secret-path-4471');
    const { h } = await rig.launch(
      (r) =>
        r.kind === 'review'
          ? r.index === 0
            ? { verdict: { completed: true, feedback: 'fine' } }
            : { verdict: { completed: false, feedback: 'the second part is missing' } }
          : { text: `answer ${r.index}` },
      { prepare: (w) => fs.writeFileSync(path.join(w.cwd, '.cccrc.json'), JSON.stringify({ notify: { webhook_url: url } })) },
    );
    await h.type('first task');
    h.press('\r');
    await expect.poll(() => receiver.json(), { timeout: 90_000 }).toMatchObject([{ event: 'end', outcome: 'unverified', task: 'first task' }]);
    let exited = false;
    void h.exited.then(() => (exited = true));
    expect(exited).toBe(false); // still open: the agent waits for its user
    await h.type('second task');
    h.press('\r');
    await expect.poll(() => receiver.json().length, { timeout: 120_000 }).toBe(2);
    expect(receiver.json()[1]).toMatchObject({ event: 'stuck', reason: 'no-progress', task: 'second task' });
  }, 240_000);
});
