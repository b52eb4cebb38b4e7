/**
 * The task's baseline and the change since it, on real git and a real directory: the snapshot
 * leaves the user's index, refs and work tree as they were; the change shows edits, commits, new
 * and deleted files made since; outside git, the files added, changed and removed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectChange } from '../../../src/checkers/reviewer/project-change.js';
import { baselineOf, newestBaseline, takeBaseline } from '../../../src/checkers/reviewer/task-baseline.js';

let dir: string;
let storesDir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-baseline-test-'));
  storesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-baseline-stores-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(storesDir, { recursive: true, force: true });
});

function git(...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}
const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);

/** What the user has of their repository: the index file's bytes, the object store, the refs, the status. */
const userView = () => ({
  objects: fs.readdirSync(path.join(dir, '.git', 'objects'), { recursive: true }).sort(),
  index: fs.readFileSync(path.join(dir, '.git', 'index')).toString('base64'),
  refs: git('for-each-ref'),
  head: git('rev-parse', 'HEAD'),
  status: git('status', '--porcelain', '--untracked-files=all'),
  stash: git('stash', 'list'),
});

describe('the task baseline in a git work tree', () => {
  beforeEach(() => {
    git('init', '-q');
    write('keep.js', 'KEEP\n');
    write('gone.js', 'GONE-5\n');
    write('edit.js', 'BEFORE-1\n');
    git('add', '.');
    git('commit', '-qm', 'start');
    write('edit.js', 'STAGED-BEFORE-2\n');
    git('add', 'edit.js');
    write('untracked-before.md', 'UNTRACKED-BEFORE-3\n');
  });

  it("is taken without changing the user's index, object store, refs or work tree", async () => {
    const before = userView();
    const baseline = await takeBaseline(dir, { storesDir });
    expect(baseline).toMatchObject({ kind: 'git', cwd: dir, head: before.head.trim() });
    expect(userView()).toEqual(before);
    expect(baselineOf(JSON.parse(JSON.stringify(baseline)))).toEqual(baseline);
  });

  it('gives the change since: a committed edit, an uncommitted one, a new file and a deleted one, not what was there before', async () => {
    const baseline = await takeBaseline(dir, { storesDir });
    write('edit.js', 'COMMITTED-AFTER-4\n');
    git('commit', '-qam', 'COMMIT-NAME-6');
    write('keep.js', 'KEEP\nUNCOMMITTED-7\n');
    write('new.md', 'NEW-FILE-8\n');
    fs.rmSync(path.join(dir, 'gone.js'));
    const before = userView();
    const change = await projectChange(dir, { baseline });
    expect(userView()).toEqual(before);
    expect(change).toContain('COMMIT-NAME-6'); // the commits made since
    expect(change).toContain('-STAGED-BEFORE-2');
    expect(change).toContain('+COMMITTED-AFTER-4');
    expect(change).toContain('+UNCOMMITTED-7');
    expect(change).toContain('+NEW-FILE-8');
    expect(change).toContain('-GONE-5');
    expect(change).not.toContain('UNTRACKED-BEFORE-3');
    expect(change).not.toContain('no record of the project');
  });

  it('without a baseline, or with one whose tree is gone, shows the work tree against the checked-out commit and says why', async () => {
    write('edit.js', 'AFTER-9\n');
    for (const baseline of [undefined, { kind: 'git' as const, at: new Date().toISOString(), cwd: dir, tree: 'f'.repeat(40), objects: storesDir }]) {
      const change = await projectChange(dir, { baseline });
      expect(change).toContain('no record of the project when the task began');
      expect(change).toContain('+AFTER-9');
      expect(change).toContain('UNTRACKED-BEFORE-3');
    }
  });
});

describe('the task baseline outside git', () => {
  it('lists the files added, changed and removed since', async () => {
    write('same.txt', 'same');
    write('grows.txt', 'a');
    write('gone.txt', 'x');
    const baseline = await takeBaseline(dir, { storesDir });
    expect(baseline).toMatchObject({ kind: 'files' });
    write('grows.txt', 'abc');
    write('added.txt', 'new');
    fs.rmSync(path.join(dir, 'gone.txt'));
    const change = await projectChange(dir, { baseline });
    expect(change).toContain('added    added.txt (3 bytes)');
    expect(change).toContain('changed  grows.txt (1 → 3 bytes)');
    expect(change).toContain('removed  gone.txt');
    expect(change).not.toMatch(/(added|changed|removed) +same\.txt/);
  });
});

describe('the newest baseline', () => {
  it('is the latest taken in the same directory', () => {
    const at = (t: number, cwd = '/p') => ({ kind: 'files' as const, at: new Date(t).toISOString(), cwd, files: [] });
    expect(newestBaseline('/p', at(1), undefined, at(3), at(2), at(9, '/elsewhere'))).toEqual(at(3));
    expect(newestBaseline('/p', undefined, at(5, '/q'))).toBeUndefined();
  });
});
