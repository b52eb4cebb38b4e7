/**
 * What the agent changed, as text for a fresh reviewer: the one that does not fork the session
 * (it would not fit the model's window) and so has not seen the work being done. The change is
 * the one since the task began, when ccc recorded the project then (task-baseline.ts): in a git
 * work tree the diff from that snapshot's tree to a snapshot of the work tree now (edits, new and
 * deleted files, committed or not) and the commits made since; elsewhere the files added,
 * changed or removed since. Without a baseline (the first task the standalone hook sees), the
 * work tree against the checked-out commit: `git diff HEAD`, the content of new untracked files.
 * Always `git status` and the last commits by name (the reviewer can read them with `git show`);
 * elsewhere the project's files, newest first. Bounded to `maxChars` so that the fresh review
 * itself fits: what is cut is said, with the command that shows it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ChildRunner } from '../../process/child-process.js';
import { readOnlyGitText } from '../../process/read-only-git.js';
import { baselineGitEnv, projectFiles, workTreeObject, type TaskBaseline } from './task-baseline.js';
import { errorText } from '../../errors.js';

/** About 10k tokens: far inside any model's window, with room for the reviewer's own tool results. */
export const MAX_CHANGE_CHARS = 40_000;
const MAX_FILES_LISTED = 300;
const RECENT_COMMITS = 10;

export interface ProjectChangeOptions {
  runner?: ChildRunner;
  maxChars?: number;
  /** The project when the task began (task-baseline.ts), when ccc recorded it. */
  baseline?: TaskBaseline;
}

export async function projectChange(cwd: string, options: ProjectChangeOptions = {}): Promise<string> {
  const budget = textBudget(options.maxChars ?? MAX_CHANGE_CHARS);
  const git = (args: string[], maxChars: number) => readOnlyGitText(args, { cwd, runner: options.runner, maxBytes: maxChars * 4 });
  if ((await git(['rev-parse', '--show-toplevel'], 10_000)) === undefined) return fileChange(cwd, budget, options.baseline);
  return gitChange({ cwd, git, budget, runner: options.runner, baseline: options.baseline?.kind === 'git' ? options.baseline : undefined });
}

type Git = (args: string[], maxChars: number) => Promise<string | undefined>;
type GitBaseline = Extract<TaskBaseline, { kind: 'git' }>;

interface GitChange {
  cwd: string;
  git: Git;
  budget: TextBudget;
  runner?: ChildRunner;
  baseline?: GitBaseline;
}

async function gitChange({ cwd, git, budget, runner, baseline }: GitChange): Promise<string> {
  const head = (await git(['rev-parse', '--verify', '-q', 'HEAD'], 100))?.trim();
  budget.add('## git status\n');
  budget.add(`${(await git(['status', '--short', '--untracked-files=all'], budget.room()))?.trimEnd() || '(clean)'}\n\n`);
  // The baseline's tree is in ccc's own store: read with it, the work tree now written to it too.
  const env = baseline && (await baselineGitEnv(cwd, baseline.objects, runner));
  const inStore: Git = (args, maxChars) => readOnlyGitText(args, { cwd, runner, maxBytes: maxChars * 4, ...(env ? { env } : {}) });
  const since = baseline && env && (await inStore(['cat-file', '-e', `${baseline.tree}^{tree}`], 10)) !== undefined ? baseline : undefined;
  const now = since ? await workTreeObject(cwd, since.objects, runner) : undefined;
  if (since && now) await changeSince(inStore, budget, since, now);
  else await changeFromHead(git, budget, cwd, head);
  if (head) {
    budget.add(`## The last commits (read one with \`git show <sha>\`)\n`);
    budget.add(`${(await git(['log', '--no-color', '--oneline', `-n${RECENT_COMMITS}`], budget.room()))?.trimEnd() ?? ''}\n`);
  }
  return budget.text();
}

/** The diff from the task's start to the work tree now, both as tree objects: edits, new and deleted files, committed or not. */
async function changeSince(git: Git, budget: TextBudget, since: GitBaseline, now: string): Promise<void> {
  if (since.head) {
    const commits = (await git(['log', '--no-color', '--oneline', `${since.head}..HEAD`], budget.room()))?.trimEnd();
    budget.add(`## Commits made since the task began (it began at ${since.head.slice(0, 12)})\n${commits || '(none)'}\n\n`);
  }
  budget.add(`## The change since the task began (${since.at}), committed or not: \`git diff ${since.tree.slice(0, 12)} ${now.slice(0, 12)}\`\n`);
  const diff = await git(['diff', '--no-color', '--no-ext-diff', '--find-renames', since.tree, now], budget.room() + 1);
  budget.add(diff?.trim() ? `${diff.trimEnd()}\n\n` : '(no file changed since the task began)\n\n', `git diff ${since.tree} ${now}`);
}

/** No record of the task's start: the work tree against the checked-out commit, and the new files. */
async function changeFromHead(git: Git, budget: TextBudget, cwd: string, head: string | undefined): Promise<void> {
  budget.add('(ccc has no record of the project when the task began: the change shown is against the checked-out commit)\n\n');
  if (head) {
    budget.add('## git diff HEAD (the work tree against the checked-out commit)\n');
    const diff = await git(['diff', '--no-color', '--no-ext-diff', 'HEAD'], budget.room() + 1);
    budget.add(diff?.trim() ? `${diff.trimEnd()}\n\n` : '(no change to tracked files)\n\n', 'git diff HEAD');
  }
  const untracked = (await git(['ls-files', '--others', '--exclude-standard', '-z'], 1_000_000))?.split('\0').filter(Boolean) ?? [];
  for (const file of untracked) {
    if (budget.full()) break;
    budget.add(`## new file ${file} (untracked)\n${await fileText(path.join(cwd, file))}\n\n`, `cat ${file}`);
  }
}

/** Not a git work tree: what changed since the baseline's file list, then the files, newest first. */
async function fileChange(root: string, budget: TextBudget, baseline: TaskBaseline | undefined): Promise<string> {
  const { files, more } = await projectFiles(root, MAX_FILES_LISTED * 10);
  if (baseline?.kind === 'files') {
    const before = new Map(baseline.files.map(([file, size, mtime]) => [file, { size, mtime }]));
    const lines: string[] = [];
    for (const [file, size, mtime] of files) {
      const was = before.get(file);
      before.delete(file);
      if (!was) lines.push(`added    ${file} (${size} bytes)`);
      else if (was.size !== size || was.mtime !== mtime) lines.push(`changed  ${file} (${was.size} → ${size} bytes)`);
    }
    // A file past either list's bound is not known to be gone.
    if (!more && !baseline.more) for (const file of before.keys()) lines.push(`removed  ${file}`);
    budget.add(`## The project is not a git work tree: files added, changed or removed since the task began (${baseline.at})\n`);
    budget.add(`${lines.length ? lines.join('\n') : '(none)'}\n\n`);
  }
  const newest = [...files].sort((a, b) => b[2] - a[2]);
  budget.add(`## ${baseline?.kind === 'files' ? 'Its' : 'The project is not a git work tree: its'} files, most recently changed first\n`);
  for (const [file, size, mtime] of newest.slice(0, MAX_FILES_LISTED)) budget.add(`${new Date(mtime).toISOString()}  ${size} bytes  ${file}\n`);
  if (newest.length > MAX_FILES_LISTED || more) budget.add(`(and more files)\n`);
  return budget.text();
}

/** A new file's text, or a line saying why it is not shown (binary, too large, unreadable). */
async function fileText(file: string): Promise<string> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return '(not a regular file)';
    if (stat.size > MAX_CHANGE_CHARS) return `(${stat.size} bytes: too large to show here)`;
    const bytes = await fs.readFile(file);
    if (bytes.includes(0)) return `(binary, ${stat.size} bytes)`;
    return bytes.toString('utf8').trimEnd();
  } catch (error) {
    return `(unreadable: ${errorText(error)})`;
  }
}

interface TextBudget {
  /** Adds `text`, or as much of it as fits and a note naming `more` (the command that shows the rest). */
  add(text: string, more?: string): void;
  room(): number;
  full(): boolean;
  text(): string;
}

function textBudget(max: number): TextBudget {
  let out = '';
  let cut = false;
  return {
    add(text, more) {
      if (cut) return;
      if (out.length + text.length <= max) {
        out += text;
        return;
      }
      out += text.slice(0, Math.max(0, max - out.length));
      out += `\n[… cut here to keep the review inside the model's window${more ? `; \`${more}\` shows the rest` : ''}]\n`;
      cut = true;
    },
    room: () => Math.max(0, max - out.length),
    full: () => cut,
    text: () => out,
  };
}
