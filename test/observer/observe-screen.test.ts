/**
 * The observer as a user finds and watches it, on the real claude TUI: `ccc sessions` lists the
 * running session with its observer URL, `ccc observe` in a second real pty mirrors the screen
 * with the events in its reserved bottom row (the prompt box stays intact while events arrive),
 * and the URL is printed again after the TUI exits.
 */
import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { parentOf } from '../support/process-tree.js';
import type { PtyHarness } from '../support/pty-harness.js';
import { runProcess } from '../support/run-process.js';

const COLS = 100;
const ROWS = 30;

/** The rows on the screen now (the emulator's buffer ends with the viewport). */
const viewport = (h: PtyHarness, rows = ROWS) => h.screen().split('\n').slice(-rows);

/** Index of the prompt box (a rule, the ❯ line, a rule) in the rows, or -1. */
function promptBox(rows: string[]): number {
  return rows.findIndex((row, i) => /^─{40,}$/.test(row.trim()) && /^❯/.test(rows[i + 1] ?? '') && /^─{40,}$/.test((rows[i + 2] ?? '').trim()));
}

describe('finding and watching a supervised session', () => {
  it('ccc sessions lists it with its observer URL; ccc observe keeps the prompt box intact with events in its bottom row; the URL is printed again at exit', async ({
    rig,
  }) => {
    const { world } = await rig.start((r) =>
      r.kind === 'review'
        ? r.index === 0
          ? { verdict: { completed: false, feedback: 'FEEDBACK-SCREEN add the notes' } }
          : { verdict: { completed: true, feedback: 'notes present' } }
        : { text: `screen answer ${r.index}` },
    );
    const session = rig.pty(process.execPath, [cccBin, '--supervisor', '--observe'], { cwd: world.cwd, env: world.env, cols: COLS, rows: ROWS });
    await session.waitForOutput(/Observer: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+/, 30_000);
    const url = /Observer: (\S+)/.exec(session.output().toString())![1]!;
    await session.waitForScreen(/❯/, 60_000);

    const listed = await runProcess(process.execPath, [cccBin, 'sessions'], { cwd: world.cwd, env: world.env });
    expect(listed.code).toBe(0);
    // The session is ccc's: in a terminal it runs behind its front process (the one the shell waits for, docs/design/byte-path.md).
    const listedPid = Number(/^pid (\d+) {2}session /m.exec(listed.stdout)?.[1]);
    expect(parentOf(listedPid)).toBe(session.pty.pid);
    expect(listed.stdout).toContain(`  cwd       ${world.cwd}\n`);
    expect(listed.stdout).toContain(`  observer  ${url}\n`);

    // One terminal a row taller than the session (the status row), one of the same size (the title).
    const observe = rig.pty(process.execPath, [cccBin, 'observe', url], { cwd: world.cwd, env: world.env, cols: COLS, rows: ROWS + 1 });
    const sameSize = rig.pty(process.execPath, [cccBin, 'observe', url], { cwd: world.cwd, env: world.env, cols: COLS, rows: ROWS });
    await observe.waitForScreen(/\[ccc\] watching session/, 30_000);
    await sameSize.waitForOutput(/\x1b\]2;ccc observe: watching session/, 30_000);

    await session.type('write the notes');
    session.press('\r');
    await session.waitForScreen(/screen answer 1[\s\S]*review 2 \(claude\): complete/, 90_000);
    // The last event reached the status row (and the title), and the mirror caught up with the session.
    const lastEvent = /\[ccc\] waiting for input · verdict of claude \(iteration \d+\): ⚠ completed \(unverified\): notes present/;
    await expect.poll(() => viewport(observe, ROWS + 1).at(-1), { timeout: 20_000 }).toMatch(lastEvent);
    await sameSize.waitForOutput(
      /\x1b\]2;ccc observe: waiting for input · verdict of claude \(iteration \d+\): ⚠ completed \(unverified\): notes present/,
      20_000,
    );

    fs.mkdirSync('test-artifacts', { recursive: true });
    const capture = () =>
      fs.writeFileSync(
        'test-artifacts/observe-screen.txt',
        [viewport(observe, ROWS + 1), ['--- same size ---'], viewport(sameSize), ['--- the session ---'], viewport(session)].flat().join('\n'),
      );
    // Both mirrors show exactly the session's screen, its prompt box included; ccc's text only in the status row.
    await expect.poll(() => (capture(), viewport(observe, ROWS + 1).slice(0, ROWS)), { timeout: 20_000 }).toEqual(viewport(session));
    await expect.poll(() => (capture(), viewport(sameSize)), { timeout: 20_000 }).toEqual(viewport(session));
    expect(promptBox(viewport(observe, ROWS + 1))).toBeGreaterThan(-1);
    expect(
      viewport(observe, ROWS + 1)
        .slice(0, -1)
        .filter((row) => row.includes('[ccc]')),
    ).toEqual([]);

    const after = await runProcess(process.execPath, [cccBin, 'sessions'], { cwd: world.cwd, env: world.env });
    expect(after.stdout).toMatch(/iteration \d+\/20/);
    expect(after.stdout).toContain('  verdict   ⚠ complete (claude, ');

    await session.type('/exit');
    await session.waitForScreen(/❯ \/exit/, 10_000);
    session.press('\r');
    expect((await session.exited).exitCode).toBe(0);
    const output = session.output().toString();
    // After the TUI has gone (claude's own farewell), not only before it started.
    expect(output.slice(output.lastIndexOf('Resume this session with'))).toContain(`Observer: ${url} (closed with the session)`);
    for (const watcher of [observe, sameSize]) {
      expect((await watcher.exited).exitCode).toBe(0);
      expect(watcher.screen()).toContain('[ccc] the session is over; stopped watching');
    }
  }, 180_000);
});
