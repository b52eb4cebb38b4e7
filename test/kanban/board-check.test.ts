/** Warnings for a kanban file that its task files contradict, on real files. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boardWarnings } from '../../src/kanban/board-check.js';
import { fileRef } from '../../src/kanban/kanban-file.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(files: string[]): string {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-board-')));
  for (const name of files) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), '# task\n');
  }
  return dir;
}

describe('boardWarnings', () => {
  it('says nothing about a consistent kanban file, however its paths are spelled', async () => {
    const root = project(['board/tasks/a.md', 'board/tasks/b.md']);
    const kanban = fileRef('board/kanban.yaml', root);
    expect(await boardWarnings(kanban, { phase: 'execute', current: './tasks/a.md', tasks: ['tasks/a.md', 'tasks//b.md'] }, root)).toEqual([]);
  });

  it('names a current that is not among the tasks, and every listed task that is not a file', async () => {
    const root = project(['board/tasks/a.md', 'board/tasks/c.md']);
    fs.mkdirSync(path.join(root, 'board', 'tasks', 'dir.md'));
    const kanban = fileRef('board/kanban.yaml', root);
    expect(await boardWarnings(kanban, { phase: 'execute', current: 'tasks/c.md', tasks: ['tasks/a.md', 'tasks/gone.md', 'tasks/dir.md'] }, root)).toEqual([
      'board/kanban.yaml: current "tasks/c.md" is not one of its tasks; the Manager gets a task list without it. Add it to tasks if it belongs there.',
      'board/kanban.yaml: tasks lists "tasks/gone.md" (board/tasks/gone.md), which is not a file.',
      'board/kanban.yaml: tasks lists "tasks/dir.md" (board/tasks/dir.md), which is not a file.',
    ]);
  });

  it('names ten missing files and counts the rest', async () => {
    const root = project(['a.md']);
    const tasks = Array.from({ length: 13 }, (_, i) => `missing-${i}.md`);
    const warnings = await boardWarnings(fileRef('kanban.yaml', root), { phase: 'execute', current: 'a.md', tasks: ['a.md', ...tasks] }, root);
    expect(warnings[0]).toBe('kanban.yaml: tasks lists "missing-0.md" (missing-0.md), which is not a file.');
    expect(warnings.at(-1)).toBe('kanban.yaml: 3 more listed tasks are not files.');
    expect(warnings).toHaveLength(11);
  });
});
