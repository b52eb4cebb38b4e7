/**
 * Pins how the real claude refuses a tool call in the TUI, which ccc reads from the transcript to
 * name it (src/loop/permission-denials.ts, `deniedInTurn`): a call a `permissions.deny` rule with a
 * specifier matches (`Bash(rm:*)`) is refused without asking: an `is_error` tool_result "Permission
 * to use Bash with command … has been denied.", and a transcript line with
 * `toolDenialKind: "permission-rule"` and `permissionDecision: {decision: "reject", source: "config",
 * ruleSource}` naming where the rule is (`flagSettings` for `--settings`). A bare rule (`Write`)
 * takes the tool away instead: it is not offered to the model, and a call of it anyway is "No such
 * tool available", with no permission decision at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import type { Frame } from '../../src/frames/frame.js';
import { deniedInTurn } from '../../src/loop/permission-denials.js';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { isToolResultTurn, type ModelServer, type Reply } from '../support/model-server.js';
import { jsonLines } from '../support/run-process.js';

type Line = Frame & { message?: { content?: unknown } };

// The refused call's answer is the `user` line with its tool_result: claude may also write the
// request itself to the transcript (an `api-request-blob` line holding the same tool_result), seen under load.
const resultOf = (line: Line) =>
  (Array.isArray(line.message?.content) ? (line.message.content as Array<Record<string, unknown>>) : []).find((b) => b.type === 'tool_result');

describe('tool calls the real claude refuses in the TUI', () => {
  /** The TUI under `--settings` with `deny`; the model makes `call` once, then answers. Returns the transcript's lines. */
  async function refusedOnce(rig: Rig, deny: string, call: (world: ClaudeWorld) => Reply): Promise<{ server: ModelServer; lines: Line[] }> {
    const server = await rig.server((r) => (isToolResultTurn(r) ? { text: 'could not' } : call(world)));
    const world = rig.world({ server });
    const h = rig.pty(claudeBin, ['--settings', JSON.stringify({ permissions: { deny: [deny] } })], { cwd: world.cwd, env: world.env });
    const projects = path.join(world.home, '.claude', 'projects');
    const transcript = (): Line[] => {
      const files = fs.existsSync(projects) ? fs.readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')) : [];
      expect(files).toHaveLength(1);
      return jsonLines(fs.readFileSync(path.join(projects, files[0]!), 'utf8')) as Line[];
    };
    try {
      await h.waitForScreen(/❯/, 60_000);
      await h.type('do it\r');
      await vi.waitFor(() => expect(server.requests.some((r) => isToolResultTurn(r))).toBe(true), { timeout: 60_000, interval: 100 });
      await h.waitForScreen(/could not/, 30_000);
      // claude writes the transcript behind the screen: under load the refused call's line can
      // land after "could not" is drawn, so wait for it before the TUI is killed.
      await vi.waitFor(() => expect(transcript().some((l) => l.type === 'user' && resultOf(l))).toBe(true), { timeout: 30_000, interval: 100 });
    } finally {
      h.kill();
    }
    return { server, lines: transcript() };
  }

  it('a deny rule with a specifier: an is_error result, a "permission-rule" reject from config naming the rule\'s settings', async ({ rig }) => {
    const { lines } = await refusedOnce(rig, 'Bash(rm:*)', () => ({
      toolUse: { name: 'Bash', input: { command: 'rm -f x.txt', description: 'remove' } },
    }));
    const refused = lines.find((l) => l.type === 'user' && resultOf(l));
    expect(resultOf(refused!)).toMatchObject({ is_error: true, content: 'Permission to use Bash with command rm -f x.txt has been denied.' });
    expect(refused).toMatchObject({
      toolDenialKind: 'permission-rule',
      permissionDecision: { decision: 'reject', source: 'config', ruleSource: 'flagSettings' },
    });
    // What ccc makes of the turn.
    expect(deniedInTurn(lines)).toEqual({ tools: ['Bash'], ruleSources: ['flagSettings'] });
  }, 120_000);

  it('a bare deny rule: the tool is not offered; a call of it is "No such tool available", not a denial', async ({ rig }) => {
    const { server, lines } = await refusedOnce(rig, 'Write', (w) => ({
      toolUse: { name: 'Write', input: { file_path: path.join(w.cwd, 'notes.txt'), content: 'notes' } },
    }));
    const offered = server.byKind('agent').map((r) => (r.body.tools ?? []).map((t) => t.name));
    expect(offered.every((names) => names.includes('Bash') && !names.includes('Write'))).toBe(true);
    const refused = lines.find((l) => l.type === 'user' && resultOf(l));
    expect(resultOf(refused!)).toMatchObject({ is_error: true, content: expect.stringContaining('No such tool available: Write') });
    expect(refused!.permissionDecision).toBeUndefined();
    expect(deniedInTurn(lines)).toEqual({ tools: [], ruleSources: [] });
  }, 120_000);
});
