/**
 * The README's first command: `npm run demo` (headless) runs the whole loop offline, and its cost
 * lines show reviews read from the prompt cache, as the scripted server reports them, each verdict
 * with the test run it rests on. `npm run demo -- --interactive` says what it does before the TUI
 * takes the screen (a hint printed after the start would be wiped), gives claude the task as its
 * first prompt, and the user only watches.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/claude-env.js';
import { runProcess } from './support/run-process.js';
import { startPty } from './support/pty-harness.js';

describe('npm run demo', () => {
  it('catches the false "done", gets the file written, and shows the reviews read from the cache', async () => {
    const viteNode = path.join(repoRoot, 'node_modules', '.bin', 'vite-node');
    const run = await runProcess(viteNode, [path.join(repoRoot, 'demo', 'run-demo.ts')], { cwd: repoRoot, env: process.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('✗ not complete (claude, failed: npm test (exit 1), $');
    expect(run.stderr).toMatch(/✓ complete \(claude, verified by: npm test, \$[\d.]+, 9\d% cached, review: forked\)/);
    expect(run.stderr).toMatch(/ccc: 2 reviews, \$[\d.]+, 9\d% of review input read from cache/);
    expect(run.stderr).toContain('the model server saw 3 agent requests and 4 review requests; hello.txt exists.');
  }, 120_000);

  it('--interactive: the hint stays readable until Enter, then the task is the first prompt and the second review confirms it', async () => {
    const viteNode = path.join(repoRoot, 'node_modules', '.bin', 'vite-node');
    const h = startPty(viteNode, [path.join(repoRoot, 'demo', 'run-demo.ts'), '--interactive'], { cwd: repoRoot, env: process.env });
    try {
      await h.waitForScreen(/press Enter to start/, 60_000);
      const hint = h.screen().replace(/\s+/g, ' ');
      expect(hint).toContain('Claude Code starts with the task "Create hello.txt containing the word hello." as its first prompt');
      expect(hint).toContain('type /exit');
      h.press('\r');
      await h.waitForScreen(/Stop says: ccc: review 2 \(claude\): complete/, 180_000);
    } finally {
      h.kill();
    }
  }, 300_000);
});
