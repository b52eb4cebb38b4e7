/**
 * The standalone hook is a new process at every stop, yet it reads only what claude wrote since
 * the session's last stop: the place its reading stopped is kept in the session state. With the
 * real claude: a session, a stop, the session resumed with a second prompt, a second stop.
 * The history before the first stop's place is changed in place between the two stops (same
 * size, same inode, the bytes right before the place untouched): a hook that read it again would
 * give the reviewer the changed first prompt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { jsonLines, runProcess } from '../support/run-process.js';

describe('the standalone hook reads the transcript on from the last stop', () => {
  const claude = (world: ClaudeWorld, args: string[]) =>
    runProcess(claudeBin, [...args, '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
  const hook = (world: ClaudeWorld, input: unknown) => runCcc(world, ['supervisor-hook'], { input: JSON.stringify(input) });
  const cursorOf = (world: ClaudeWorld, id: string) =>
    (JSON.parse(fs.readFileSync(path.join(world.claudeDir, 'ccc', `supervisor-${id}.json`), 'utf8')) as { transcript_cursor?: { offset: number } })
      .transcript_cursor;

  /** Rewrites every `from` before `end` in `file` as `to` (same length), in place. */
  function rewriteInPlace(file: string, from: string, to: string, end: number): void {
    const text = fs.readFileSync(file);
    const fd = fs.openSync(file, 'r+');
    let rewritten = 0;
    for (let at = text.indexOf(from); at !== -1 && at + from.length <= end; at = text.indexOf(from, at + 1), rewritten++)
      fs.writeSync(fd, Buffer.from(to), 0, to.length, at);
    fs.closeSync(fd);
    expect(rewritten).toBeGreaterThan(0);
  }

  it("the second stop's review lists the prompts of both stops, from the first stop's reading and the bytes added since", async ({ rig }) => {
    const { server, world } = await rig.start((r) =>
      r.kind === 'review' ? { verdict: { completed: false, feedback: `review #${r.index}: add tests` } } : { text: 'I am done' },
    );
    const run = await claude(world, ['-p', 'write the parser']);
    const sessionId = jsonLines(run.stdout).find((f) => f.type === 'result')!.session_id as string;
    const transcript = path.join(world.claudeDir, 'projects', world.cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
    const input = {
      session_id: sessionId,
      transcript_path: transcript,
      cwd: world.cwd,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'I am done',
      background_tasks: [],
    };
    expect(JSON.parse((await hook(world, input)).stdout)).toMatchObject({ decision: 'block' });
    expect(server.byKind('review')[0]!.lastUserText).toContain('1. write the parser');
    const firstStop = fs.statSync(transcript).size;
    expect(cursorOf(world, sessionId)?.offset).toBe(firstStop);

    // The bytes right before the place are what tells the same file from a rewritten one: left alone.
    rewriteInPlace(transcript, 'write the parser', 'WRITE THE PARSER', firstStop - 64);
    const resumed = await claude(world, ['-p', 'now add tests', '--resume', sessionId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse((await hook(world, input)).stdout)).toMatchObject({ decision: 'block' });
    const review = server.byKind('review')[1]!.lastUserText;
    expect(review).toContain('1. write the parser');
    expect(review).toContain('2. now add tests');
    expect(cursorOf(world, sessionId)?.offset).toBe(fs.statSync(transcript).size);

    // A transcript replaced by another file is read from its start: the changed prompt is what it holds now.
    fs.copyFileSync(transcript, `${transcript}.copy`);
    fs.renameSync(`${transcript}.copy`, transcript);
    expect(JSON.parse((await hook(world, input)).stdout)).toMatchObject({ decision: 'block' });
    expect(server.byKind('review')[2]!.lastUserText).toContain('1. WRITE THE PARSER');
  }, 180_000);
});
