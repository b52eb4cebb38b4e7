/** The kanban file on disk: atomic rewrites that keep a symlinked kanban file (or log) a symlink. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileRef, linkTarget, readKanbanFile, writeKanbanChanges } from '../../src/kanban/kanban-file.js';
import { eventLog } from '../../src/kanban/event-log.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function setup(): string {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-kanban-file-')));
  return dir;
}

describe('writes through a symlink', () => {
  it('write the kanban file the link points to, atomically, and leave the link a link', async () => {
    const root = setup();
    fs.mkdirSync(path.join(root, 'boards'));
    const target = path.join(root, 'boards', 'kanban.yaml');
    fs.writeFileSync(target, '# ours\nphase: execute\ncurrent: a.md\ntasks: [a.md]\n', { mode: 0o640 });
    fs.chmodSync(target, 0o640);
    fs.symlinkSync('boards/kanban.yaml', path.join(root, 'board.yaml'));
    const doc = await readKanbanFile(fileRef('board.yaml', root));
    const inode = fs.statSync(target).ino;

    await writeKanbanChanges(doc, { done_task: 'a.md' });

    expect(fs.lstatSync(path.join(root, 'board.yaml')).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(path.join(root, 'board.yaml'))).toBe('boards/kanban.yaml');
    expect(fs.readFileSync(target, 'utf8')).toBe('# ours\nphase: execute\ncurrent: a.md\ntasks: [ a.md ]\ndone_task: a.md\n');
    // Replaced by a rename (a new inode), with its mode kept and no temp file left in either directory.
    expect(fs.statSync(target).ino).not.toBe(inode);
    expect(fs.statSync(target).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(root).sort()).toEqual(['board.yaml', 'boards']);
    expect(fs.readdirSync(path.join(root, 'boards'))).toEqual(['kanban.yaml']);
  });

  it('append to the log a symlink points to, even before that file exists', async () => {
    const root = setup();
    fs.mkdirSync(path.join(root, 'logs'));
    fs.symlinkSync('logs/supervisor.md', path.join(root, 'SUPERVISOR_LOG.md'));
    const log = eventLog(fileRef('kanban.yaml', root));
    await log.append('### one\n');
    await log.append('### two\n');
    expect(fs.lstatSync(path.join(root, 'SUPERVISOR_LOG.md')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(root, 'logs', 'supervisor.md'), 'utf8')).toBe('## Supervisor Log\n\n### one\n\n### two\n');
  });

  it("resolves chains of links, relative to each link's own directory, and refuses a loop", async () => {
    const root = setup();
    fs.mkdirSync(path.join(root, 'a'));
    fs.symlinkSync('../b.yaml', path.join(root, 'a', 'first.yaml'));
    fs.symlinkSync('c/missing.yaml', path.join(root, 'b.yaml'));
    expect(await linkTarget(path.join(root, 'a', 'first.yaml'))).toBe(path.join(root, 'c', 'missing.yaml'));
    fs.symlinkSync('loop2', path.join(root, 'loop1'));
    fs.symlinkSync('loop1', path.join(root, 'loop2'));
    await expect(linkTarget(path.join(root, 'loop1'))).rejects.toMatchObject({ code: 'ELOOP' });
    expect(await linkTarget(path.join(root, 'plain.yaml'))).toBe(path.join(root, 'plain.yaml'));
  });
});
