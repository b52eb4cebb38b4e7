/**
 * Pins how the real claude refuses a tool call in print mode, which ccc names to the user
 * (src/loop/permission-denials.ts): without a grant, a Write is not run, its tool_result is
 * `is_error` with "Claude requested permissions to write to <path>, but you haven't granted it
 * yet.", the transcript line says `permissionDecision: {decision: "reject", source: "config"}` and
 * `toolDenialKind: "user-rejected"`, and the result frame lists it in `permission_denials`
 * (`tool_name`, `tool_use_id`, `tool_input`). A tool taken away with `--disallowedTools` is not
 * offered to the model at all; a call of it anyway is "No such tool available" and no denial.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { jsonLines, runProcess } from '../support/run-process.js';

type Block = { type: string; content?: unknown; is_error?: boolean; tool_use_id?: string };

function toolResults(frames: Array<Record<string, unknown>>): Block[] {
  return frames
    .filter((f) => f.type === 'user')
    .flatMap((f) => {
      const content = (f.message as { content: Block[] | string }).content;
      return typeof content === 'string' ? [] : content;
    })
    .filter((b) => b.type === 'tool_result');
}

/** The session's transcript lines (one session per test world). */
function transcriptLines(world: ClaudeWorld): Array<Record<string, unknown>> {
  const projects = path.join(world.env.HOME!, '.claude', 'projects');
  const files = fs.readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return jsonLines(fs.readFileSync(path.join(projects, files[0]!), 'utf8'));
}

describe('tool calls the real claude refuses in print mode', () => {
  async function writeOnce(rig: Rig, extraArgs: string[]) {
    let target = '';
    const server = await rig.server((r) => {
      const last = r.body.messages[r.body.messages.length - 1];
      const afterTool = Array.isArray(last?.content) && last.content.some((b) => b.type === 'tool_result');
      return afterTool ? { text: 'could not' } : { toolUse: { name: 'Write', input: { file_path: target, content: 'notes' } } };
    });
    const world = rig.world({ server });
    target = path.join(world.cwd, 'notes.txt');
    const run = await runProcess(claudeBin, ['-p', 'write notes.txt', '--output-format', 'stream-json', '--verbose', ...extraArgs], {
      cwd: world.cwd,
      env: world.env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(fs.existsSync(target)).toBe(false);
    const frames = jsonLines(run.stdout);
    return { server, world, target, frames, result: frames.find((f) => f.type === 'result')! };
  }

  it('without a grant: an is_error tool_result, a reject in the transcript, the call in permission_denials', async ({ rig }) => {
    const { world, target, frames, result } = await writeOnce(rig, []);
    const [refused] = toolResults(frames);
    expect(refused).toMatchObject({ is_error: true, content: `Claude requested permissions to write to ${target}, but you haven't granted it yet.` });
    expect(result.permission_denials).toEqual([{ tool_name: 'Write', tool_use_id: refused!.tool_use_id, tool_input: { file_path: target, content: 'notes' } }]);
    const line = transcriptLines(world).find((l) => toolResults([l]).length > 0);
    expect(line).toMatchObject({ toolDenialKind: 'user-rejected', permissionDecision: { decision: 'reject', source: 'config' } });
  }, 120_000);

  it('--disallowedTools: the tool is not offered; a call of it is "No such tool available", not a denial', async ({ rig }) => {
    const { server, frames, result } = await writeOnce(rig, ['--disallowedTools', 'Write']);
    const tools = server.byKind('agent').map((r) => ((r.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name));
    expect(tools.every((names) => names.length > 0 && !names.includes('Write'))).toBe(true);
    expect(toolResults(frames)).toEqual([expect.objectContaining({ is_error: true, content: expect.stringContaining('No such tool available: Write') })]);
    expect(result.permission_denials).toEqual([]);
  }, 120_000);
});
