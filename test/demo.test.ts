/**
 * The README's first command: `npm run demo` (headless) runs the whole loop offline, and its cost
 * lines show reviews read from the prompt cache, as the scripted server reports them, each verdict
 * with the test run it rests on. `npm run demo -- --interactive` says what it does before the TUI
 * takes the screen (a hint printed after the start would be wiped), gives claude the task as its
 * first prompt, and the user only watches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { repoRoot } from './support/claude-env.js';
import { runProcess } from './support/run-process.js';
import { it } from './support/fixtures.js';

describe('npm run demo', () => {
  it('catches the false "done", gets the file written, and shows the reviews read from the cache', async () => {
    const viteNode = path.join(repoRoot, 'node_modules', '.bin', 'vite-node');
    const run = await runProcess(viteNode, [path.join(repoRoot, 'demo', 'run-demo.ts')], { cwd: repoRoot, env: process.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('✗ not complete (claude, failed: npm test (exit 1: hello.txt says hello), $');
    expect(run.stderr).toMatch(/✓ complete \(claude, verified by: npm test \(1 test\), \$[\d.]+, 9\d% cached, review: forked\)/);
    expect(run.stderr).toMatch(/ccc: 2 reviews, \$[\d.]+, 9\d% of review input read from cache/);
    expect(run.stderr).toContain('the model server saw 3 agent requests and 4 review requests; hello.txt exists.');
  }, 120_000);

  it('--interactive: the hint stays readable until Enter, the task is the first prompt, the second review confirms it, and /exit ends the demo', async ({
    rig,
  }) => {
    const viteNode = path.join(repoRoot, 'node_modules', '.bin', 'vite-node');
    const h = rig.pty(viteNode, [path.join(repoRoot, 'demo', 'run-demo.ts'), '--interactive'], { cwd: repoRoot, env: process.env });
    await h.waitForScreen(/press Enter to start/, 60_000);
    const hint = h.screen().replace(/\s+/g, ' ');
    expect(hint).toContain('Claude Code starts with the task "Create hello.txt containing the word hello." as its first prompt');
    expect(hint).toContain('type /exit');
    h.press('\r');
    await h.waitForScreen(/Stop says: ccc: ✓ review 2 \(claude\): complete, verified by: /, 180_000);
    await h.waitForScreen(/❯\s*\n/, 30_000);
    await h.type('/exit');
    await h.waitForScreen(/❯\s\/exit/, 30_000); // the TUI took the command: Enter runs it
    h.press('\r');
    // a deadline rather than the test's timeout, so a hang says what it hung on and shows the screen
    const exit = await new Promise<{ exitCode: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo did not end within 60 s of /exit\n--- screen ---\n${h.screen()}`)), 60_000);
      void h.exited.then((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
    expect(exit.exitCode, h.screen()).toBe(0);
    const output = h.output().toString('utf8');
    expect(output).toContain('demo: ccc exited 0');
    // the terminal is given back: the cursor shown and bracketed paste off after the TUI's last use of them
    expect(output.lastIndexOf('\x1b[?25h')).toBeGreaterThan(output.lastIndexOf('\x1b[?25l'));
    expect(output.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(output.lastIndexOf('\x1b[?2004h'));
    expect(output.lastIndexOf('\x1b[?2004h')).toBeGreaterThan(-1);
    const project = /demo: project (\S+)/.exec(output)![1]!;
    expect(fs.existsSync(path.dirname(project))).toBe(false); // the throw-away HOME and project are gone
  }, 300_000);
});
