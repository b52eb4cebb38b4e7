/**
 * Pins where the real claude shows a Stop hook's `systemMessage` (docs/design/claude-facts.md),
 * which carries ccc's verdict to the user of the TUI and of a session ccc did not start
 * (src/loop/hook-output.ts): the TUI shows it under the agent's answer as `Stop says: <message>`,
 * every line of it, and the transcript keeps it as a `hook_system_message` attachment. Print mode
 * prints it nowhere in `text` and `json` output (a script reading stdout gets only the answer);
 * `stream-json` has it as a `system`/`informational` frame, each of its lines beginning `Stop says: `. No request to the model carries it
 * (test/claude/stop-hook-feedback.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const MESSAGE = 'ccc: ⚠ review 1 (claude): complete, unverified\nMARK-3317 second line';

describe("a Stop hook's systemMessage in the real claude", () => {
  /** A world whose Stop hook answers `{ systemMessage: MESSAGE }`; the `--settings` that installs it. */
  async function withHook(rig: Rig) {
    const server = await rig.server((r) => ({ text: `agent answer ${r.index}` }));
    const world = rig.world({ server });
    const hook = path.join(world.root, 'hook.sh');
    const answer = path.join(world.root, 'answer.json');
    fs.writeFileSync(answer, JSON.stringify({ systemMessage: MESSAGE }));
    fs.writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\ncat '${answer}'\n`, { mode: 0o755 });
    return { server, world, settings: ['--settings', JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } })] };
  }

  /** The attachments of the one transcript there is. */
  function shown(world: ClaudeWorld): Array<Record<string, unknown> | undefined> {
    const projects = path.join(world.claudeDir, 'projects');
    const files = fs.existsSync(projects) ? fs.readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')) : [];
    return files.flatMap((f) => jsonLines(fs.readFileSync(path.join(projects, f), 'utf8'))).map((l) => l.attachment as Record<string, unknown> | undefined);
  }

  it('the TUI shows it as "Stop says:" with every line, and the transcript keeps it as a hook_system_message attachment', async ({ rig }) => {
    const { server, world, settings } = await withHook(rig);
    const h = rig.pty(claudeBin, settings, { cwd: world.cwd, env: world.env });
    try {
      await h.waitForScreen(/❯/, 60_000);
      await h.type('do it\r');
      await h.waitForScreen(/⎿\s+Stop says: ccc: ⚠ review 1 \(claude\): complete, unverified\n\s+MARK-3317 second line/, 60_000);
      // claude writes the transcript behind the screen.
      await vi.waitFor(
        () => expect(shown(world).filter((a) => a?.type === 'hook_system_message')).toEqual([expect.objectContaining({ content: MESSAGE, hookEvent: 'Stop' })]),
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      h.kill();
    }
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain('MARK-3317');
  }, 120_000);

  it.for(['text', 'json'])('print mode with --output-format %s prints it nowhere', { timeout: 120_000 }, async (format, { rig }) => {
    const { world, settings } = await withHook(rig);
    const run = await runProcess(claudeBin, ['-p', 'do it', '--output-format', format, ...settings], { cwd: world.cwd, env: world.env, timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('agent answer 0');
    expect(run.stdout + run.stderr).not.toContain('MARK-3317');
  });

  it('print mode with --output-format stream-json has it as a system/informational frame', async ({ rig }) => {
    const { world, settings } = await withHook(rig);
    const run = await runProcess(claudeBin, ['-p', 'do it', '--output-format', 'stream-json', '--verbose', ...settings], {
      cwd: world.cwd,
      env: world.env,
      timeoutMs: 90_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).filter((f) => JSON.stringify(f).includes('MARK-3317'))).toEqual([
      // Every line of it said by the hook.
      expect.objectContaining({ type: 'system', subtype: 'informational', content: MESSAGE.replace(/^/gm, 'Stop says: '), level: 'notice' }),
    ]);
  }, 120_000);
});
