/**
 * `ccc supervisor-mode` as the agent runs it inside a real Claude Code session (a Bash tool call
 * against the scripted model server), and as a user runs it with --session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { cccBin, claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn } from '../support/model-server.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const stateFile = (world: ClaudeWorld, sessionId: string) => path.join(world.claudeDir, 'ccc', `supervisor-${sessionId}.json`);
const ccc = `${process.execPath} ${cccBin}`;

describe('ccc supervisor-mode', () => {
  it('turns supervision off for the session it runs in, and reports it', async ({ rig }) => {
    const commands = [`${ccc} supervisor-mode off`, `${ccc} supervisor-mode`];
    const server = await rig.server((request) => {
      const step = request.index;
      if (step < commands.length) return { toolUse: { name: 'Bash', input: { command: commands[step]!, description: 'supervisor mode' } } };
      return { text: 'done' };
    });
    const world = rig.world({ server });
    const result = await runProcess(claudeBin, ['-p', 'turn the supervisor off', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash'], {
      cwd: world.cwd,
      env: world.env,
    });
    expect(result.code).toBe(0);
    const sessionId = jsonLines(result.stdout).find((f) => f.type === 'result')!.session_id as string;

    const state = JSON.parse(fs.readFileSync(stateFile(world, sessionId), 'utf8'));
    expect(state).toMatchObject({ session_id: sessionId, enabled: false, iteration: 0, max_iterations: 20 });
    // What the agent saw from the two commands reached the model as tool results.
    const toolResults = server
      .byKind('agent')
      .filter(isToolResultTurn)
      .map((r) => r.lastUserText);
    expect(toolResults[0]).toContain(`Supervisor mode off for session ${sessionId}.`);
    expect(toolResults[1]?.trim()).toBe('off');

    const on = await runCcc(world, ['supervisor-mode', 'on', '--session', sessionId]);
    expect(on.code).toBe(0);
    expect((await runCcc(world, ['supervisor-mode', '--session', sessionId])).stdout).toBe('on\n');
    expect(JSON.parse(fs.readFileSync(stateFile(world, sessionId), 'utf8')).enabled).toBe(true);
  });

  it('prints on for a session without state (the hook supervises by default) and writes nothing', async ({ rig }) => {
    const world = rig.world();
    const result = await runCcc(world, ['supervisor-mode'], { env: { CLAUDE_CODE_SESSION_ID: 'abc-123' } });
    expect(result).toMatchObject({ code: 0, stdout: 'on\n' });
    expect(fs.existsSync(stateFile(world, 'abc-123'))).toBe(false);
  });

  it('says how to name the session when it runs outside Claude Code', async ({ rig }) => {
    const world = rig.world();
    const result = await runCcc(world, ['supervisor-mode', 'off']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('CLAUDE_CODE_SESSION_ID is not set');
    expect(result.stderr).toContain('--session <id>');
  });

  it('refuses a mode other than on/off and a session id that could name another file', async ({ rig }) => {
    const world = rig.world();
    const bad = await runCcc(world, ['supervisor-mode', 'maybe', '--session', 's1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('takes "on" or "off" (got "maybe")');
    const escape = await runCcc(world, ['supervisor-mode', 'off', '--session', '../../etc']);
    expect(escape.code).toBe(2);
    expect(escape.stderr).toContain('Invalid session id');
    expect(fs.existsSync(path.join(world.claudeDir, 'ccc'))).toBe(false); // refused before any file was touched
  });
});
