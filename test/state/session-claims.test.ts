/**
 * One supervisor per session: the claim file's rules with a fake process table (which pids are
 * alive), on the real file system and the real lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimPath, claimSession, liveHolder } from '../../src/state/session-claims.js';

const ID = 'c0ffee00-1111-4222-8333-444455556666';

describe('session claims', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const configDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-claims-'));
    dirs.push(dir);
    return dir;
  };
  const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

  it('a live holder keeps its session; the second claimer learns who holds it', async () => {
    const dir = configDir();
    const first = await claimSession(dir, ID, { mode: 'headless', cwd: '/p' }, { pid: 101, isAlive: alive([101, 202]) });
    expect(first.taken).toBe(true);
    const second = await claimSession(dir, ID, { mode: 'interactive', cwd: '/p' }, { pid: 202, isAlive: alive([101, 202]) });
    expect(second).toMatchObject({ taken: false, holder: { pid: 101, mode: 'headless', cwd: '/p' } });
    expect(liveHolder(dir, ID, { pid: 202, isAlive: alive([101, 202]) })?.pid).toBe(101);
    expect(liveHolder(dir, ID, { pid: 101, isAlive: alive([101, 202]) })).toBeUndefined();
  });

  it("a dead holder's claim is stale and taken over", async () => {
    const dir = configDir();
    await claimSession(dir, ID, { mode: 'headless', cwd: '/p' }, { pid: 101, isAlive: alive([101]) });
    const next = await claimSession(dir, ID, { mode: 'headless', cwd: '/q' }, { pid: 202, isAlive: alive([202]) });
    expect(next.taken).toBe(true);
    expect(JSON.parse(fs.readFileSync(claimPath(dir, ID), 'utf8'))).toMatchObject({ pid: 202, cwd: '/q' });
  });

  it("release removes only the releaser's own claim", async () => {
    const dir = configDir();
    const stale = await claimSession(dir, ID, { mode: 'headless', cwd: '/p' }, { pid: 101, isAlive: alive([101]) });
    const taker = await claimSession(dir, ID, { mode: 'headless', cwd: '/p' }, { pid: 202, isAlive: alive([202]) });
    if (!stale.taken || !taker.taken) throw new Error('both should have claimed in turn');
    stale.release(); // 101's claim was taken over: 202's stays
    expect(fs.existsSync(claimPath(dir, ID))).toBe(true);
    taker.release();
    expect(fs.existsSync(claimPath(dir, ID))).toBe(false);
  });

  it('of many claimers starting at once, exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const dir = configDir();
      const pids = Array.from({ length: 8 }, (_, i) => 1000 + i);
      const results = await Promise.all(pids.map((pid) => claimSession(dir, ID, { mode: 'headless', cwd: '/p' }, { pid, isAlive: alive(pids) })));
      const winners = results.filter((r) => r.taken);
      expect(winners).toHaveLength(1);
      const holder = JSON.parse(fs.readFileSync(claimPath(dir, ID), 'utf8')) as { pid: number };
      for (const r of results) if (!r.taken) expect(r.holder.pid).toBe(holder.pid);
    }
  });

  it('a torn claim file holds nothing', async () => {
    const dir = configDir();
    fs.mkdirSync(path.dirname(claimPath(dir, ID)), { recursive: true });
    fs.writeFileSync(claimPath(dir, ID), '{"pid": 1');
    const result = await claimSession(dir, ID, { mode: 'hook', cwd: '/p' }, { pid: 202, isAlive: () => true });
    expect(result.taken).toBe(true);
  });

  it('a session id that could steer the path is refused', async () => {
    await expect(claimSession(configDir(), '../x', { mode: 'hook', cwd: '/p' })).rejects.toThrow(/Invalid session id/);
  });
});
