/**
 * Following a run from afar: the observer page in a real Chromium, on real supervised runs of the
 * real claude against the scripted model server. Headless: the task, the agent's tool calls as
 * they happen, a wait on the model's limit with its resume time and its end, and a review with
 * its cost, cache share and evidence. Interactive: the task each review checked, read from the
 * transcript. Model text (a task with markup and escape sequences) shows as text.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeEach, describe, expect, onTestFinished } from 'vitest';
import { it, type Fixtures } from '../support/fixtures.js';
import { cccBin } from '../support/claude-env.js';
import { isToolResultTurn, type RecordedRequest, type Reply } from '../support/model-server.js';
import { bashCall, reviewStep } from '../support/review-script.js';

let browser: Browser;

// One Chromium for the file (the browser fixture), each test's pages closed after it.
beforeEach<Fixtures>(({ browser: shared }) => {
  browser = shared;
});

/** The page, with every script error and any markup the session's text could have injected recorded. */
async function openPage(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  await page.getByText('live', { exact: true }).waitFor({ timeout: 30_000 });
  return { page, errors };
}

const timeline = (page: Page) => page.locator('#timeline').innerText();

/** A task with markup that would run script if inserted as HTML, and escape sequences (colour, a title) that a terminal would act on. */
const HOSTILE = 'fix the parser <img src=x onerror="window.__injected=1"> \x1b[31mRED\x1b[0m \x1b]0;owned\x07 now';
/** What the page shows of it: the markup as text, each control character a space. */
const HOSTILE_SHOWN = 'fix the parser <img src=x onerror="window.__injected=1">  [31mRED [0m  ]0;owned  now';

async function expectInert(page: Page, errors: string[]) {
  expect(await page.locator('#timeline img').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  expect(await timeline(page)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  expect(errors).toEqual([]);
}

describe('the observer page follows a headless run', () => {
  it('shows the task, the tool calls, the wait on the limit with its end, and the review with its cost and evidence', async ({ rig }) => {
    let pageLive!: () => void;
    const watched = new Promise<void>((resolve) => (pageLive = resolve));
    let notes = '';
    const limited: Reply = {
      error: { status: 429, type: 'rate_limit_error', message: 'Number of request tokens has exceeded your rate limit', headers: { 'retry-after': '3600' } },
    };
    const server = await rig.server((r: RecordedRequest): Reply => {
      if (r.kind === 'review') {
        return reviewStep(r) === 0
          ? { toolUse: bashCall('npm test') }
          : { verdict: { completed: true, feedback: 'npm test passes' }, usage: { input_tokens: 800, cache_read_input_tokens: 9200, output_tokens: 40 } };
      }
      // The agent reads a file; the model refuses the turn's next request on a limit; once resumed,
      // the agent answers when the page watches (so that its events come live, not only replayed).
      if (r.index === 0) return { toolUse: { name: 'Read', input: { file_path: notes } } };
      if (isToolResultTurn(r) && r.index === 1) return limited;
      return { text: 'The parser is fixed.', until: watched };
    });
    const world = rig.world({ server, supervisor: true });
    notes = path.join(world.cwd, 'notes.md');
    writeFileSync(notes, '# notes\n');
    writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test' } }));
    mkdirSync(path.join(world.cwd, 'test'));
    writeFileSync(path.join(world.cwd, 'test', 'ok.test.js'), "require('node:test')('parses', () => {});\n");

    const child = spawn(process.execPath, [cccBin, '--supervisor', '--observe', '-p', HOSTILE], {
      cwd: world.cwd,
      env: { ...world.env, CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '1' },
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => stderr, { timeout: 60_000 }).toMatch(/Observer: http:\/\/\S+/);
    const url = /Observer: (\S+)/.exec(stderr)![1]!;
    const { page, errors } = await openPage(url);
    // The wait is on the page before the run goes on.
    await expect.poll(() => timeline(page), { timeout: 60_000 }).toContain("Wait over: resuming the agent's turn");
    pageLive();

    const verdict = page.locator('.event[data-kind="verdict"]');
    await expect.poll(() => verdict.count(), { timeout: 120_000 }).toBe(1);
    expect(await exited, stderr).toBe(0);
    const text = await timeline(page);
    expect(await page.locator('.event[data-kind="start"]').innerText()).toContain(HOSTILE_SHOWN);
    // The agent's tool call, with the file it read.
    expect(await page.locator('.event[data-kind="tools"]').first().innerText()).toContain(`Agent: Read ${notes}`);
    // The wait, with its resume time and whose request it was, then its end.
    expect(await page.locator('.event[data-kind="waiting"]').innerText()).toMatch(/Waiting on the model's limit until \S+.*, then resuming the agent's turn/);
    expect(await page.locator('.event[data-kind="waiting"] pre').innerText()).toMatch(/rate limited/);
    // The review: verified by the test run it made, with what it cost and the share read from the cache.
    expect(await verdict.innerText()).toMatch(
      /✓ claude: completed \(iteration 1, verified by: npm test \(1 test\)\); review \$\d+\.\d+, 9\d% of [\d,]+ input tokens from cache/,
    );
    // In the order they happened; the verdict on the run's own task names no second task.
    const order = ['Task', `Agent: Read ${notes}`, "Waiting on the model's limit", 'Wait over', '✓ claude: completed', 'Session ended (exit code 0)'].map((s) =>
      text.indexOf(s),
    );
    expect(
      order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)),
      `${order.join(' ')}\n${text}`,
    ).toBe(true);
    expect(await page.locator('.event[data-kind="task"]').count()).toBe(0);
    await expectInert(page, errors);
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/observer-timeline-headless.png' });
    await page.close();
  }, 300_000);
});

describe('the observer page follows an interactive session', () => {
  it("shows the task each review checked, the user's prompt read from the transcript, as text", async ({ rig }) => {
    const { h } = await rig.launch((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'looks done' } } : { text: `answer ${r.index}` }), {
      args: ['--observe'],
    });
    const url = /Observer: (\S+)/.exec(h.output().toString())![1]!;
    const { page, errors } = await openPage(url);

    await h.type('fix the parser <img src=x onerror="window.__injected=1"> now');
    h.press('\r');
    const tasks = page.locator('.event[data-kind="task"]');
    await expect.poll(() => page.locator('.event[data-kind="verdict"]').count(), { timeout: 120_000 }).toBe(1);
    expect(await tasks.allInnerTexts()).toEqual([expect.stringContaining('fix the parser <img src=x onerror="window.__injected=1"> now')]);
    // A second task typed: its review shows it first.
    await h.waitForScreen(/review 1 \(claude\): complete/, 60_000);
    await h.type('now add the changelog');
    h.press('\r');
    await expect.poll(() => page.locator('.event[data-kind="verdict"]').count(), { timeout: 120_000 }).toBe(2);
    expect(await tasks.count()).toBe(2);
    expect(await tasks.nth(1).innerText()).toContain('now add the changelog');
    // Each task shows when its review begins: right before the review's iteration.
    const kinds = await page.locator('.event').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.kind));
    const reviews = kinds.flatMap((kind, i) => (kind === 'iteration' ? [i] : []));
    expect(reviews.map((i) => kinds[i - 1])).toEqual(['task', 'task']);
    await expectInert(page, errors);
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/observer-timeline-interactive.png' });
    await page.close();
  }, 300_000);
});
