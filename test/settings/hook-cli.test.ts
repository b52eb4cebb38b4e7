/**
 * `ccc hook install|uninstall` as a user runs it, on a settings.json that holds the user's own
 * keys, hooks and fields ccc does not know.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { cccBin, claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const original = {
  model: 'opus',
  env: { MY_TOOL_HOME: '/opt/tool' },
  permissions: { allow: ['Bash(npm test)'], deny: ['WebFetch'] },
  statusLine: { type: 'command', command: '~/bin/status.sh' },
  aFieldFromTheFuture: { nested: [1, { deep: true }], empty: {} },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send "claude stopped"' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/home/me/bin/guard.sh', timeout: 5 }] }],
  },
};
const originalText = `${JSON.stringify(original, null, 2)}\n`;

/** A world, its user settings file (not written yet), the backups ccc made of it, and what it holds. */
function userSettings(rig: Rig) {
  const world = rig.world();
  const settingsFile = path.join(world.claudeDir, 'settings.json');
  const backups = () => fs.readdirSync(world.claudeDir).filter((n) => n.startsWith('settings.json.bak-'));
  const read = () => JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  return { world, settingsFile, backups, read };
}
const expectedCommand = `${process.execPath} ${cccBin} supervisor-hook`;

describe('ccc hook install / uninstall', () => {
  it("adds one Stop hook, keeps everything of the user's, adds nothing twice, and uninstall restores the original", async ({ rig }) => {
    const { world, settingsFile, backups, read } = userSettings(rig);
    fs.writeFileSync(settingsFile, originalText);

    const install = await runCcc(world, ['hook', 'install']);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    const installed = read();
    const { hooks, statusLine, ...rest } = installed;
    const { hooks: originalHooks, statusLine: originalLine, ...originalRest } = original;
    expect(rest).toEqual(originalRest);
    // The user's status line (if any) runs inside ccc's recorder, which counts the session's cost for the hook.
    expect(statusLine.command).toContain('ccc-session-status-line');
    if (originalLine) expect(statusLine.command).toContain(originalLine.command);
    expect(hooks.PreToolUse).toEqual(originalHooks.PreToolUse);
    expect(hooks.Stop).toEqual([...originalHooks.Stop, { hooks: [{ type: 'command', command: expectedCommand, timeout: 18_661 }] }]); // the default claude checker's 600 s, its 1 s abort grace, the 60 s margin, 300 min of waiting on the model's limits
    expect(JSON.stringify(installed)).not.toContain('--state-dir');
    expect(backups()).toHaveLength(1);
    expect(fs.readFileSync(path.join(world.claudeDir, backups()[0]!), 'utf8')).toBe(originalText);
    expect(install.stdout).toContain(`Added the ccc Stop hook to ${settingsFile}: ${expectedCommand} (timeout 18661 s).`);
    expect(install.stdout).toContain(`Backup of the previous content: ${path.join(world.claudeDir, backups()[0]!)}`);

    const afterFirst = fs.readFileSync(settingsFile, 'utf8');
    const again = await runCcc(world, ['hook', 'install']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already in');
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(afterFirst);
    expect(backups()).toHaveLength(1);

    const uninstall = await runCcc(world, ['hook', 'uninstall']);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain(`Removed the ccc Stop hook from ${settingsFile}.`);
    expect(read()).toEqual(original);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(originalText); // 2-space JSON as written: even the bytes match
    expect(backups()).toHaveLength(2);
  });

  it('takes the hook timeout from timeout_seconds', async ({ rig }) => {
    const { world, read } = userSettings(rig);
    const result = await runCcc(world, ['hook', 'install'], { env: { CCC_SUPERVISOR_TIMEOUT_SECONDS: '120' } });
    expect(result.code).toBe(0);
    expect(read().hooks.Stop[0].hooks[0].timeout).toBe(181 + 300 * 60); // 120 s, the 1 s abort grace, the 60 s margin, the limit waits
  });

  it("covers every checker's own timeout_seconds, one after the other", async ({ rig }) => {
    const { world, read } = userSettings(rig);
    const checkers = [{ use: 'rule', commands: ['true'], timeout_seconds: 900 }, 'claude'];
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { timeout_seconds: 120, checkers } }));
    const result = await runCcc(world, ['hook', 'install']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(read().hooks.Stop[0].hooks[0].timeout).toBe(900 + 120 + 2 * 1 + 60 + 300 * 60);
  });

  it('--dry-run prints the diff and writes nothing', async ({ rig }) => {
    const { world, settingsFile, backups } = userSettings(rig);
    fs.writeFileSync(settingsFile, originalText);
    const result = await runCcc(world, ['hook', 'install', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`--- ${settingsFile}\n+++ ${settingsFile} (after)\n@@ `);
    expect(result.stdout).toContain(`+            "command": ${JSON.stringify(expectedCommand)},`);
    expect(result.stdout).toContain('+            "timeout": 18661');
    expect(result.stdout).toContain('Dry run: nothing was written.');
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(originalText);
    expect(backups()).toEqual([]);
  });

  it('--dry-run for a settings file that does not exist yet shows every line as added', async ({ rig }) => {
    const { world, settingsFile } = userSettings(rig);
    fs.rmSync(settingsFile, { force: true });
    const result = await runCcc(world, ['hook', 'install', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^--- ${settingsFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(does not exist\\)\n\\+\\+\\+ .*\n@@ -0,0 \\+1,\\d+ @@\n\\+\\{\n`),
    );
    expect(fs.existsSync(settingsFile)).toBe(false);
  });

  it('--project writes ./.claude/settings.json and leaves the user file alone', async ({ rig }) => {
    const { world, settingsFile } = userSettings(rig);
    fs.writeFileSync(settingsFile, originalText);
    const result = await runCcc(world, ['hook', 'install', '--project']);
    expect(result.code).toBe(0);
    const projectFile = path.join(world.cwd, '.claude', 'settings.json');
    expect(JSON.parse(fs.readFileSync(projectFile, 'utf8')).hooks.Stop[0].hooks[0].command).toBe(expectedCommand);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(originalText);
    expect((await runCcc(world, ['hook', 'uninstall', '--project'])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(projectFile, 'utf8'))).toEqual({});
  });

  it('refuses a corrupt settings.json with a clear error and leaves it byte-identical', async ({ rig }) => {
    const { world, settingsFile } = userSettings(rig);
    const corrupt = '{\n  "model": "opus",\n  "hooks": { "Stop": [ }\n}\n';
    fs.writeFileSync(settingsFile, corrupt);
    for (const args of [
      ['hook', 'install'],
      ['hook', 'uninstall'],
    ]) {
      const result = await runCcc(world, args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^ccc: ${settingsFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be used: it is not valid JSON \\(line 3, column 24: Unexpected token .+\\)\\. ccc did not change it\\.`,
        ),
      );
      expect(fs.readFileSync(settingsFile, 'utf8')).toBe(corrupt);
      expect(fs.readdirSync(world.claudeDir)).toEqual(['settings.json']);
    }
  });

  it('writes an entry the real claude accepts and runs at its stop', async ({ rig }) => {
    const world = rig.world();
    const server = await rig.server(() => ({ text: 'all done' }));
    expect((await runCcc(world, ['hook', 'install'])).code).toBe(0);
    // CCC_SUPERVISOR_HOOK names the ccc whose reviewer this claude is (here this test's process, which starts it): the hook must allow the stop at once.
    const env = { ...world.env, ANTHROPIC_BASE_URL: server.url, CCC_SUPERVISOR_HOOK: String(process.pid) };
    const result = await runProcess(claudeBin, ['-p', 'do it', '--output-format', 'stream-json', '--verbose', '--include-hook-events'], {
      cwd: world.cwd,
      env,
    });
    expect(result.code).toBe(0);
    const frames = jsonLines(result.stdout);
    expect(frames.find((f) => f.type === 'result')?.result).toBe('all done');
    // settings.json holds no other Stop hook: this is ccc's command, run by claude, succeeding.
    expect(frames.filter((f) => f.subtype === 'hook_response' && f.hook_event === 'Stop')).toEqual([
      expect.objectContaining({ exit_code: 0, outcome: 'success' }),
    ]);
  });
});
