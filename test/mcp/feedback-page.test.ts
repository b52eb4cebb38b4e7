/**
 * The feedback page in a real browser (Debian's chromium through playwright-core): the human sees
 * the agent's question, types an answer, and that answer is what collect_feedback returns.
 */
import { afterEach, describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { startMcpProcess, type McpProcess } from './support/mcp-process.js';

let server: McpProcess | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the feedback page', () => {
  it('shows the question as text and sends the typed answer back to the agent', async ({ browser }) => {
    server = await startMcpProcess();
    const page = await browser.newPage();
    await page.goto(await server.pageUrl());
    await expect.poll(() => page.locator('#empty').textContent()).toContain('No question is waiting');

    const question = 'Keep the <script>alert(1)</script> tag in the docs?';
    const pending = server.callJson('collect_feedback', { question });
    const card = page.locator('form.question');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.text').textContent()).toBe(question); // rendered as text, not HTML
    await card.locator('textarea').fill('Yes, keep it.');
    await card.locator('button').click();
    expect(await pending).toMatchObject({ answered: true, answer: 'Yes, keep it.', via: 'web' });
    await card.waitFor({ state: 'detached' });

    const wrongToken = await page.goto((await server.pageUrl()).replace(/token=.*/, 'token=nope'));
    expect(wrongToken?.status()).toBe(401);
  });
});
