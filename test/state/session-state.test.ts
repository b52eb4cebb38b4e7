/** Per-session state: fresh and stored reads, corrupt files, and counts that survive real concurrent processes. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { sessionStatePath } from '../../src/state/paths.js';
import { readSessionState, updateSessionState } from '../../src/state/session-state.js';
import { holdWriteWarnings } from '../../src/state/write-failure.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

const bumpScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bump-state.mjs');

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

const bump = (s: { iteration: number }) => ({ ...s, iteration: s.iteration + 1 }) as never;

describe('session state', () => {
  it('starts fresh, persists updates atomically, and maintains ids and timestamps', async () => {
    expect(await readSessionState(t.claudeDir, 'sess-1')).toBeUndefined();
    let clock = new Date('2026-01-01T00:00:00.000Z');
    const now = () => clock;
    const first = await updateSessionState(t.claudeDir, 'sess-1', bump, { now, maxIterations: 7 });
    expect(first).toEqual({
      session_id: 'sess-1',
      iteration: 1,
      max_iterations: 7,
      enabled: true,
      prompt_count: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    clock = new Date('2026-01-01T00:05:00.000Z');
    const verdict = { checker: 'claude', completed: false, feedback: 'add tests', at: clock.toISOString() };
    const second = await updateSessionState(
      t.claudeDir,
      'sess-1',
      (s) => ({ ...s, iteration: s.iteration + 1, last_verdict: verdict, session_id: 'other', created_at: 'x' }),
      { now },
    );
    expect(second).toMatchObject({
      session_id: 'sess-1',
      iteration: 2,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:05:00.000Z',
      last_verdict: verdict,
    });

    const file = sessionStatePath(t.claudeDir, 'sess-1');
    expect(file).toBe(path.join(t.claudeDir, 'ccc', 'supervisor-sess-1.json'));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(second);
    expect(await readSessionState(t.claudeDir, 'sess-1')).toEqual(second);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // No temp files or locks left behind.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['supervisor-sess-1.json']);
  });

  it('a corrupt state file is logged, kept aside as .corrupt-<ts>, and replaced by a fresh state', async () => {
    const file = sessionStatePath(t.claudeDir, 'broken');
    fs.writeFileSync(file, '{"session_id": "broken", "iteration": ');
    const logger = createRecordingLogger();
    expect(await readSessionState(t.claudeDir, 'broken', { logger })).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"session_id": "broken", "iteration": '); // reading changes nothing

    const state = await updateSessionState(t.claudeDir, 'broken', bump, { logger });
    expect(state.iteration).toBe(1);
    const aside = fs.readdirSync(path.dirname(file)).filter((f) => /^supervisor-broken\.json\.corrupt-\d+$/.test(f));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(file), aside[0]!), 'utf8')).toBe('{"session_id": "broken", "iteration": ');
    expect(logger.lines.map((l) => l.level)).toEqual(['warn', 'warn']);
    expect(logger.lines[1]!.fields.moved_to).toBe(path.join(path.dirname(file), aside[0]!));
  });

  it('a file corrupted mid-session: a visible warning, and the count goes on from the last one this process knew', async () => {
    const shown: string[] = [];
    const release = holdWriteWarnings((line) => shown.push(line));
    try {
      for (let i = 0; i < 3; i++) await updateSessionState(t.claudeDir, 'mid', bump);
      const file = sessionStatePath(t.claudeDir, 'mid');
      fs.writeFileSync(file, 'not json at all');
      const logger = createRecordingLogger();
      const state = await updateSessionState(t.claudeDir, 'mid', bump, { logger });
      expect(state.iteration).toBe(4);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ iteration: 4 });
      expect(logger.lines[0]).toMatchObject({ level: 'warn', message: expect.stringContaining('counting goes on from review 3') });
      expect(shown).toEqual([
        expect.stringMatching(
          /^WARN: the session state .*supervisor-mid\.json was corrupt; it was moved to .*\.corrupt-\d+ and counting goes on from review 3\.$/,
        ),
      ]);
    } finally {
      release();
    }
  });

  it('a config directory that vanished (a link to a volume no longer there): counted in memory, one warning', async () => {
    const configDir = path.join(t.root, 'linked-config');
    fs.symlinkSync(path.join(t.root, 'unmounted', 'volume'), configDir);
    const shown: string[] = [];
    const release = holdWriteWarnings((line) => shown.push(line));
    try {
      const states = [];
      for (let i = 0; i < 3; i++) states.push(await updateSessionState(configDir, 'gone', bump));
      expect(states.map((s) => s.iteration)).toEqual([1, 2, 3]);
      expect(shown).toEqual([expect.stringContaining(`WARN: cannot write in ${configDir}/ccc (ENOENT`)]);
      expect(shown[0]).toContain('state in memory');
      // A one-shot command (`ccc supervisor off`) has no session to keep it for: an error naming the file.
      await expect(updateSessionState(configDir, 'gone-cli', bump, { saveOrFail: true })).rejects.toMatchObject({
        code: 'CONFIG_DIR_UNUSABLE',
        message: expect.stringContaining(`${configDir}/ccc/supervisor-gone-cli.json`),
      });
    } finally {
      release();
    }
  });

  it('a well-formed file of the wrong shape or of another session counts as corrupt', async () => {
    const file = sessionStatePath(t.claudeDir, 's2');
    fs.writeFileSync(file, JSON.stringify({ session_id: 's2', iteration: -3 }));
    expect(await readSessionState(t.claudeDir, 's2')).toBeUndefined();
    fs.writeFileSync(file, JSON.stringify({ ...(await updateSessionState(t.claudeDir, 's2', bump)), session_id: 's3' }));
    expect(await readSessionState(t.claudeDir, 's2')).toBeUndefined();
  });

  it('keeps the transcript lines read at the last review, and a count that is not one is corrupt', async () => {
    const state = await updateSessionState(t.claudeDir, 's4', (s) => ({ ...s, transcript_frames: 31 }));
    expect((await readSessionState(t.claudeDir, 's4'))?.transcript_frames).toBe(31);
    fs.writeFileSync(sessionStatePath(t.claudeDir, 's4'), JSON.stringify({ ...state, transcript_frames: -1 }));
    expect(await readSessionState(t.claudeDir, 's4')).toBeUndefined();
  });

  it("keeps the standalone hook's transcript cursor; one that is not an object is dropped, the state is not corrupt", async () => {
    const cursor = { v: 1, path: '/t.jsonl', offset: 10 };
    const state = await updateSessionState(t.claudeDir, 's5', (s) => ({ ...s, transcript_cursor: cursor }));
    expect((await readSessionState(t.claudeDir, 's5'))?.transcript_cursor).toEqual(cursor);
    // Every other update keeps it.
    await updateSessionState(t.claudeDir, 's5', bump);
    expect((await readSessionState(t.claudeDir, 's5'))?.transcript_cursor).toEqual(cursor);
    fs.writeFileSync(sessionStatePath(t.claudeDir, 's5'), JSON.stringify({ ...state, transcript_cursor: 'torn' }));
    const read = await readSessionState(t.claudeDir, 's5');
    expect(read?.iteration).toBe(state.iteration);
    expect(read?.transcript_cursor).toBeUndefined();
  });

  it('refuses to write a state the update function broke, and keeps the old one', async () => {
    await updateSessionState(t.claudeDir, 's', bump);
    await expect(updateSessionState(t.claudeDir, 's', (s) => ({ ...s, iteration: Number.NaN }))).rejects.toMatchObject({ code: 'INTERNAL' });
    expect((await readSessionState(t.claudeDir, 's'))!.iteration).toBe(1);
    // The lock was released despite the failure.
    expect((await updateSessionState(t.claudeDir, 's', bump)).iteration).toBe(2);
  });

  it('recovers a stale lock left by a process that died while holding it', async () => {
    const file = sessionStatePath(t.claudeDir, 'stale');
    fs.mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect((await updateSessionState(t.claudeDir, 'stale', bump)).iteration).toBe(1);
  });

  it('rejects session ids that could leave the state directory', async () => {
    for (const bad of ['../x', 'a/b', '', '..', 'a b', 'x\u0000y']) {
      await expect(updateSessionState(t.claudeDir, bad, bump)).rejects.toMatchObject({ code: 'USAGE' });
    }
    expect(fs.readdirSync(t.root).sort()).toEqual(['home', 'work']);
  });

  it('concurrent processes never lose a count: 8 × 10 on one session, and 8 sessions × 10 alongside', async () => {
    const run = (sid: string) => runProcess(process.execPath, [bumpScript, t.claudeDir, sid, '10'], { timeoutMs: 120_000 });
    const results = await Promise.all([...Array.from({ length: 8 }, () => run('shared')), ...Array.from({ length: 8 }, (_, i) => run(`own-${i}`))]);
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const shared = (await readSessionState(t.claudeDir, 'shared'))!;
    expect(shared.iteration).toBe(80);
    expect(shared.prompt_count).toBe(80);
    for (let i = 0; i < 8; i++) expect((await readSessionState(t.claudeDir, `own-${i}`))!.iteration).toBe(10);
    const leftovers = fs.readdirSync(path.join(t.claudeDir, 'ccc')).filter((f) => !/^supervisor-[\w-]+\.json$/.test(f));
    expect(leftovers).toEqual([]);
  }, 180_000);
});
