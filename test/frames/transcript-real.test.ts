/**
 * The transcript as the real claude (2.1.330) writes it, with a Stop hook that blocks once:
 * pins the shapes ccc reads (docs/design/claude-facts.md) and checks readTranscript/tailTranscript on it.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, onTestFinished, vi } from 'vitest';
import type { Frame } from '../../src/frames/frame.js';
import { readTranscript, transcriptPath, transcriptPathFor } from '../../src/frames/transcript.js';
import { tailTranscript } from '../../src/frames/transcript-tail.js';
import { TranscriptReader } from '../../src/frames/transcript-reader.js';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn } from '../support/model-server.js';
import { runProcess } from '../support/run-process.js';

describe('a real transcript with a Stop hook that blocks once', () => {
  it("gives the user's prompt only (not the hook feedback), the last assistant text, and the same frames live", async ({ rig }) => {
    const server = await rig.server((r) => {
      if (r.index === 0) return { text: 'Let me check', toolUse: { name: 'Bash', input: { command: 'echo hi', description: 'say hi' } } };
      if (isToolResultTurn(r)) return { text: 'First done' };
      return { text: 'Done after feedback' };
    });
    const world = rig.world({ server });
    const hookInput = path.join(world.root, 'hook-input.jsonl');
    const marker = path.join(world.root, 'blocked-once');
    const hook = path.join(world.root, 'hook.sh');
    const sessionId = randomUUID();
    const file = transcriptPath(world.home, world.cwd, sessionId);
    // The transcript as it is at each stop, to hold against the final one.
    const atStops = path.join(world.root, 'at-stops');
    fs.mkdirSync(atStops);
    fs.writeFileSync(
      hook,
      `#!/bin/sh\ncat >> '${hookInput}'\necho >> '${hookInput}'\ncp '${file}' '${atStops}/'"$(date +%s%N)"\n` +
        `if [ ! -e '${marker}' ]; then touch '${marker}'; echo '{"decision":"block","reason":"Please add tests"}'; fi\n`,
      { mode: 0o755 },
    );
    // Follow the transcript before it exists, as interactive mode does.
    const live: Frame[] = [];
    const stop = new AbortController();
    onTestFinished(() => stop.abort());
    tailTranscript(new TranscriptReader(file), stop.signal, { pollMs: 100 }).subscribe((frame) => live.push(frame));

    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } };
    const run = await runProcess(
      claudeBin,
      [
        '-p',
        'please do the thing',
        '--session-id',
        sessionId,
        '--output-format',
        'stream-json',
        '--verbose',
        '--allowedTools',
        'Bash',
        '--settings',
        JSON.stringify(settings),
      ],
      { cwd: world.cwd, env: world.env },
    );
    expect(run.code, run.stderr).toBe(0);

    // The hook names the file transcriptPath predicts.
    const hookCalls = fs
      .readFileSync(hookInput, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
    expect(hookCalls).toHaveLength(2);
    expect(hookCalls[0].transcript_path).toBe(file);

    const summary = await readTranscript(file);
    expect(summary.userPrompts).toEqual(['please do the thing']);
    expect(summary.lastAssistantText).toBe('Done after feedback');

    // The shapes, as written.
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const users = lines.filter((l) => l.type === 'user');
    expect(users.map((u) => [u.isMeta ?? false, u.message.content])).toEqual([
      [false, 'please do the thing'],
      [false, [expect.objectContaining({ type: 'tool_result', content: 'hi' })]],
      [true, 'Stop hook feedback:\nPlease add tests'],
    ]);
    const assistants = lines.filter((l) => l.type === 'assistant');
    expect(assistants.map((a) => a.message.content.map((b: { type: string }) => b.type))).toEqual([['text'], ['tool_use'], ['text'], ['text']]);
    // Text and tool call of one model message are two lines with the same message id.
    expect(assistants[0].message.id).toBe(assistants[1].message.id);
    expect(lines.every((l) => l.sessionId === undefined || l.sessionId === sessionId)).toBe(true);

    // claude only appends: the transcript at each stop is the start of the final one, byte for byte,
    // which is what lets a stop read on from where the last one stopped (src/frames/transcript-reader.ts).
    const final = fs.readFileSync(file);
    const snapshots = fs.readdirSync(atStops).map((name) => fs.readFileSync(path.join(atStops, name)));
    expect(snapshots).toHaveLength(2);
    for (const snapshot of snapshots) expect(final.subarray(0, snapshot.length).equals(snapshot)).toBe(true);

    // The live tail saw every frame the reader saw, in the same order.
    await vi.waitFor(() => expect(live).toHaveLength(summary.frames), { timeout: 20_000, interval: 100 });
    expect(live.map((f) => f.type)).toEqual(lines.map((l) => l.type));
  });

  it('writes the transcript under CLAUDE_CONFIG_DIR when it is set', async ({ rig }) => {
    const world = rig.world({ server: await rig.server(() => ({ text: 'hi' })) });
    const configDir = path.join(world.root, 'config');
    fs.mkdirSync(configDir);
    fs.copyFileSync(path.join(world.home, '.claude.json'), path.join(configDir, '.claude.json'));
    const env = { ...world.env, CLAUDE_CONFIG_DIR: configDir };
    const sessionId = randomUUID();
    const run = await runProcess(claudeBin, ['-p', 'hello', '--session-id', sessionId, '--output-format', 'json'], { cwd: world.cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(fs.existsSync(transcriptPathFor(env, world.cwd, sessionId))).toBe(true);
    expect(fs.existsSync(transcriptPath(world.home, world.cwd, sessionId))).toBe(false);
    expect((await readTranscript(transcriptPathFor(env, world.cwd, sessionId))).userPrompts).toEqual(['hello']);
  });
});
