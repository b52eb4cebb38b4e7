/**
 * Pins what the real claude reports about Bash calls, which the reviewer's evidence and guard rely
 * on: a command that exits 0 is a `tool_result` without `is_error`; one that fails is `is_error`
 * with text starting `Exit code N` and then its output; a call a PreToolUse hook denies is
 * `is_error` with the hook's reason. The hook's `cwd` follows a `cd` of an earlier call, and a `cd`
 * out of the project is reset to the project by claude after the call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { claudeBin } from '../support/claude-env.js';
import { jsonLines, runProcess } from '../support/run-process.js';

describe('Bash tool results of the real claude', () => {
  it('exit 0, a failing exit code with the output, a hook denial with its reason; the hook sees the shell directory', async ({ rig }) => {
    const commands = ['echo out; echo err >&2; exit 3', 'echo fine', 'touch DENIED', 'cd /tmp', 'mkdir -p sub && cd sub', 'pwd'];
    const server = await rig.server((r) => {
      const command = commands[r.body.messages.filter((m) => m.role === 'assistant').length];
      return command ? { toolUse: { name: 'Bash', input: { command, description: 'step' } } } : { text: 'done' };
    });
    const world = rig.world({ server });
    const log = path.join(world.root, 'hook.log');
    const hook = path.join(world.root, 'hook.sh');
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: '`touch DENIED` is not allowed: REASON-4417' },
    });
    fs.writeFileSync(hook, `#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' "$input" >> '${log}'\ncase "$input" in *DENIED*) printf '%s' '${deny}';; esac\n`, {
      mode: 0o755,
    });
    const settings = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hook }] }] } };

    const run = await runProcess(
      claudeBin,
      ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', '--settings', JSON.stringify(settings)],
      { cwd: world.cwd, env: world.env },
    );
    expect(run.code, run.stderr).toBe(0);
    const results = jsonLines(run.stdout)
      .filter((f) => f.type === 'user')
      .flatMap((f) => (f.message as { content: Array<{ type: string; content?: unknown; is_error?: boolean }> }).content)
      .filter((b) => b.type === 'tool_result');
    expect(results.map((r) => [r.is_error === true, r.content])).toEqual([
      [true, 'Exit code 3\nout\nerr'],
      [false, 'fine'],
      [true, expect.stringContaining('`touch DENIED` is not allowed: REASON-4417')],
      [false, `Shell cwd was reset to ${world.cwd}`],
      [false, '(Bash completed with no output)'],
      [false, path.join(world.cwd, 'sub')],
    ]);
    expect(fs.existsSync(path.join(world.cwd, 'DENIED'))).toBe(false);
    const cwds = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { cwd: string }).cwd);
    expect(cwds).toEqual([world.cwd, world.cwd, world.cwd, world.cwd, world.cwd, path.join(world.cwd, 'sub')]);
  }, 60_000);
});
