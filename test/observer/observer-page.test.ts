/**
 * The observer page in a real Chromium: it renders the session's terminal with the bundled
 * xterm.js, lists the supervisor's events, shows the connection state and reconnects by itself.
 */
import { mkdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { lookOf } from '../../src/checkers/verdict-look.js';
import { it, type Fixtures } from '../support/fixtures.js';
import type { ObserverEvent, ObserverServer } from '../../src/observer/observer-server.js';
import { connectObserver } from './support/test-observer.js';
import { startTestObserver } from './support/start-test-observer.js';

const at = '2026-11-22T01:02:03.000Z';
let browser: Browser;
let server: ObserverServer | undefined;

// One Chromium for the file (the browser fixture), each test's pages closed after it.
beforeEach<Fixtures>(({ browser: shared }) => {
  browser = shared;
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function terminalText(page: Page): Promise<string> {
  const rows = await page.locator('.xterm-rows > div').allTextContents();
  return rows.map((row) => row.replace(/\u00a0/g, ' ').trimEnd()).join('\n');
}

async function openPage(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 720 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  return { page, errors };
}

describe('observer page', () => {
  it('shows the terminal text and the verdict timeline, then the end of the session', async () => {
    server = await startTestObserver({
      hello: { session_id: 'sess-42', cwd: '/home/dev/project', command: ['claude', '--model', 'opus'], cols: 90, rows: 20, started_at: at },
    });
    server.publishPty(Buffer.from('\x1b[1m> \x1b[0mFix the failing test in parser.ts\r\n\r\n'));
    server.publishEvent({ kind: 'iteration', n: 1, max: 20, at });
    server.publishEvent({ kind: 'phase', phase: 'review', at });
    server.publishEvent({
      kind: 'verdict',
      checker: 'claude',
      completed: false,
      feedback: 'The test `parser handles empty input` still fails:\n  expected [] to equal [""]',
      iteration: 1,
      at,
    });
    const { page, errors } = await openPage(server.url);

    await page.getByText('live', { exact: true }).waitFor();
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('> Fix the failing test in parser.ts');
    // Live output after the page joined, written by a TUI in colour.
    server.publishPty(Buffer.from('\x1b[32m⏺ Edited parser.ts: empty input now returns []\x1b[0m\r\n'));
    server.publishEvent({ kind: 'iteration', n: 2, max: 20, at });
    server.publishEvent({ kind: 'checker', checker: 'claude', state: 'done', duration_ms: 4200, at });
    server.publishEvent({
      kind: 'verdict',
      checker: 'claude',
      completed: true,
      feedback: 'All tests pass.',
      iteration: 2,
      evidence: [
        { command: 'npm test -- --listTests', exit_code: 0, not_counted: 'it only lists the tests' },
        { command: 'npm test', exit_code: 0, scope: 'whole', tests: 12 },
      ],
      verification: 'verified',
      at,
    });
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('⏺ Edited parser.ts: empty input now returns []');

    const verdicts = page.locator('.event[data-kind="verdict"]');
    await expect.poll(() => verdicts.count(), { timeout: 15_000 }).toBe(2);
    expect(await verdicts.nth(0).getAttribute('data-completed')).toBe('false');
    expect(await verdicts.nth(0).innerText()).toContain('✗ claude: not completed (iteration 1)');
    expect(await verdicts.nth(0).locator('pre').innerText()).toContain('expected [] to equal [""]');
    // Verified by the run that ran tests; the listing that exited 0 is not named as evidence.
    expect(await verdicts.nth(1).innerText()).toContain('✓ claude: completed (iteration 2, verified by: npm test (12 tests))');
    expect(await page.locator('.event[data-kind="iteration"]').allInnerTexts()).toEqual([
      expect.stringContaining('Iteration 1/20'),
      expect.stringContaining('Iteration 2/20'),
    ]);
    expect(await page.locator('#session').innerText()).toContain('/home/dev/project');
    expect(await page.locator('.event[data-kind="checker"]').innerText()).toContain('claude: done after 4.2 s');

    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/observer-page.png' });

    server.publishEvent({ kind: 'end', exit_code: 0, at });
    await server.close();
    server = undefined;
    await page.locator('#status', { hasText: 'session ended' }).waitFor();
    expect(await page.locator('.event[data-kind="end"]').innerText()).toContain('Session ended (exit code 0)');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("draws each outcome with verdict-look.ts's sign and colour, in the server's words; one it does not know as unverified", async () => {
    server = await startTestObserver();
    const verdict = { kind: 'verdict', checker: 'claude', completed: true, feedback: 'ok', at } as const;
    server.publishEvent({ ...verdict, iteration: 1, verification: 'verified', evidence: [{ command: 'npm test', exit_code: 0, tests: 3, scope: 'whole' }] });
    // The words of an outcome verification.ts may add come from the server; the page draws what it knows of it.
    server.publishEvent({
      ...verdict,
      iteration: 2,
      verification: 'focused' as 'verified',
      evidence: [{ command: 'npm test -- -t parse', exit_code: 0, tests: 1 }],
    });
    server.publishEvent({ ...verdict, iteration: 3, verification: 'unverified', evidence: [] });
    server.publishEvent({ ...verdict, iteration: 4, verification: 'bogus' as 'verified' });
    server.publishEvent({ ...verdict, iteration: 5, completed: false, verification: 'failed', evidence: [{ command: 'npm test', exit_code: 1 }] });
    const { page, errors } = await openPage(server.url);
    const verdicts = page.locator('.event[data-kind="verdict"]');
    await expect.poll(() => verdicts.count(), { timeout: 15_000 }).toBe(5);
    const signs = (['verified', 'focused', 'unverified', 'unverified', 'failed'] as const).map((o) => lookOf(o).sign);
    expect((await verdicts.locator('.title').allInnerTexts()).map((t) => t.split(' (')[0])).toEqual(
      signs.map((sign, i) => `${sign} claude: ${i === 4 ? 'not completed' : 'completed'}`),
    );
    expect(await verdicts.nth(0).locator('.title').innerText()).toContain('(iteration 1, verified by: npm test (3 tests))');
    expect(await verdicts.nth(4).locator('.title').innerText()).toContain('(iteration 5, failed: npm test (exit 1))');
    expect(await verdicts.evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.verification))).toEqual([
      'verified',
      'focused',
      'unverified',
      'unverified',
      'failed',
    ]);
    // Four colours: only a verified one has the colour of a success.
    const borders = await verdicts.evaluateAll((items) => items.map((i) => getComputedStyle(i).borderLeftColor || getComputedStyle(i).borderColor));
    expect(new Set([borders[0], borders[1], borders[2], borders[4]]).size).toBe(4);
    expect(borders[3]).toBe(borders[2]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows spend against the cap when an event carries it, a wait given up, and paced tool calls; ignores spend it cannot read', async () => {
    server = await startTestObserver();
    const verdict = { kind: 'verdict', checker: 'claude', completed: false, feedback: 'not yet', iteration: 1, at } as const;
    // The page reads spend only when present and well-formed (an older or foreign sender may send anything).
    server.publishEvent({ ...verdict, spent_usd: 1.25, cap_usd: 5 });
    server.publishEvent({ ...verdict, iteration: 2, spent_usd: '9', cap_usd: null } as unknown as ObserverEvent);
    server.publishEvent({ ...verdict, iteration: 3, spent_usd: 0.004 });
    server.publishEvent({
      kind: 'tools',
      calls: [
        { name: 'Bash', input: 'npm test' },
        { name: 'TodoWrite', input: '' },
      ],
      more: 7,
      at,
    });
    server.publishEvent({ kind: 'wait-over', who: 'reviewer', outcome: 'gave-up', waited_ms: 300 * 60_000, at });
    server.publishEvent({ kind: 'end', exit_code: 3, spent_usd: 5.01, cap_usd: 5, at } as ObserverEvent);
    const { page, errors } = await openPage(server.url);
    const verdicts = page.locator('.event[data-kind="verdict"]');
    await expect.poll(() => verdicts.count(), { timeout: 15_000 }).toBe(3);
    expect(await verdicts.nth(0).locator('.title').innerText()).toMatch(/\(iteration 1\); spent \$1\.250 of \$5\.000$/);
    expect(await verdicts.nth(1).locator('.title').innerText()).toMatch(/\(iteration 2\)$/);
    expect(await verdicts.nth(2).locator('.title').innerText()).toMatch(/\(iteration 3\); spent \$0\.0040$/);
    expect(await page.locator('.event[data-kind="tools"]').innerText()).toContain('Agent: Bash npm test · TodoWrite · +7 more');
    expect(await page.locator('.event[data-kind="wait-over"]').innerText()).toContain("Gave up waiting on the model's limit after 300 min");
    await expect.poll(() => page.locator('.event[data-kind="end"]').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('.event[data-kind="end"]').innerText()).toContain('Session ended (exit code 3); spent $5.010 of $5.000');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a 140-column terminal to the width of the page, and again when the window narrows', async () => {
    server = await startTestObserver({ hello: { session_id: 'wide', cwd: '/w', command: ['claude'], cols: 140, rows: 30, started_at: at } });
    server.publishPty(Buffer.from(`${'x'.repeat(136)}END>\r\n`));
    const { page, errors } = await openPage(server.url);
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('END>');
    const fits = () =>
      page.evaluate(() => {
        const pane = document.querySelector('.terminal-pane')!.getBoundingClientRect();
        const screen = document.querySelector('.xterm-screen')!.getBoundingClientRect();
        const scroller = document.querySelector('.terminal-pane')!;
        return screen.width > 0 && screen.right <= pane.right && scroller.scrollWidth <= scroller.clientWidth;
      });
    await expect.poll(fits, { timeout: 10_000 }).toBe(true);
    await page.setViewportSize({ width: 1000, height: 720 });
    await expect.poll(fits, { timeout: 10_000 }).toBe(true);
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/observer-page-140-columns.png' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says why it is not connected and reconnects by itself when it can', async () => {
    server = await startTestObserver({ maxObservers: 1 });
    const first = await connectObserver(server.url);
    const { page } = await openPage(server.url);
    await page.locator('#status', { hasText: /too many observers \(max 1\).*retrying/ }).waitFor();
    server.publishPty(Buffer.from('visible after reconnect'));
    first.ws.close();
    await page.getByText('live', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('visible after reconnect');
    await page.close();
  });

  it('shows nothing of the session without the token', async () => {
    server = await startTestObserver();
    const page = await browser.newPage();
    const response = await page.goto(server.url.replace(/\?.*$/, ''));
    expect(response?.status()).toBe(401);
    expect(await page.content()).not.toContain('xterm');
    await page.close();
  });
});
