/**
 * What the agent changed, as text for a fresh reviewer: the one that does not fork the session
 * (it would not fit the model's window) and so has not seen the work being done. In a git work
 * tree: `git status`, the diff of the work tree against the checked-out commit (staged and
 * unstaged), the content of new untracked files, and the last commits by name (the agent may have
 * committed part of the work; the reviewer can read them with `git show`). Elsewhere: the
 * project's files, newest first. Bounded to `maxChars` so that the fresh review itself fits: what
 * is cut is said, with the command that shows it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { childRunner, type ChildRunner } from '../../process/child-process.js';

/** About 10k tokens: far inside any model's window, with room for the reviewer's own tool results. */
export const MAX_CHANGE_CHARS = 40_000;
const MAX_FILES_LISTED = 300;
const RECENT_COMMITS = 10;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);
const GIT_TIMEOUT_MS = 30_000;

export interface ProjectChangeOptions {
  runner?: ChildRunner;
  maxChars?: number;
}

export async function projectChange(cwd: string, options: ProjectChangeOptions = {}): Promise<string> {
  const runner = options.runner ?? childRunner;
  const budget = textBudget(options.maxChars ?? MAX_CHANGE_CHARS);
  if ((await git(runner, cwd, ['rev-parse', '--show-toplevel'], budget.room())) === undefined) return fileList(cwd, budget);
  return gitChange(cwd, runner, budget);
}

async function gitChange(cwd: string, runner: ChildRunner, budget: TextBudget): Promise<string> {
  const head = (await git(runner, cwd, ['rev-parse', '--verify', '-q', 'HEAD'], 100))?.trim();
  budget.add('## git status\n');
  budget.add(`${(await git(runner, cwd, ['status', '--short', '--untracked-files=all'], budget.room()))?.trimEnd() || '(clean)'}\n\n`);
  if (head) {
    budget.add('## git diff HEAD (the work tree against the checked-out commit)\n');
    const diff = await git(runner, cwd, ['diff', '--no-color', '--no-ext-diff', 'HEAD'], budget.room() + 1);
    budget.add(diff?.trim() ? `${diff.trimEnd()}\n\n` : '(no change to tracked files)\n\n', 'git diff HEAD');
  }
  const untracked = (await git(runner, cwd, ['ls-files', '--others', '--exclude-standard', '-z'], 1_000_000))?.split('\0').filter(Boolean) ?? [];
  for (const file of untracked) {
    if (budget.full()) break;
    budget.add(`## new file ${file} (untracked)\n${await fileText(path.join(cwd, file))}\n\n`, `cat ${file}`);
  }
  if (head) {
    budget.add(`## The last commits (read one with \`git show <sha>\`)\n`);
    budget.add(`${(await git(runner, cwd, ['log', '--no-color', '--oneline', `-n${RECENT_COMMITS}`], budget.room()))?.trimEnd() ?? ''}\n`);
  }
  return budget.text();
}

/** Not a git work tree: the files, newest first, for the reviewer to read what it needs. */
async function fileList(root: string, budget: TextBudget): Promise<string> {
  const files: Array<{ file: string; size: number; mtimeMs: number }> = [];
  const pending = [''];
  while (pending.length > 0 && files.length < MAX_FILES_LISTED * 10) {
    const dir = pending.shift()!;
    const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) pending.push(relative);
      } else if (entry.isFile()) {
        const stat = await fs.stat(path.join(root, relative)).catch(() => undefined);
        if (stat) files.push({ file: relative, size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  budget.add('## The project is not a git work tree: its files, most recently changed first\n');
  for (const { file, size, mtimeMs } of files.slice(0, MAX_FILES_LISTED)) budget.add(`${new Date(mtimeMs).toISOString()}  ${size} bytes  ${file}\n`);
  if (files.length > MAX_FILES_LISTED) budget.add(`(and ${files.length - MAX_FILES_LISTED} more files)\n`);
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
    return `(unreadable: ${(error as Error).message})`;
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

/** The output of a git command (at most `maxChars` of it), or undefined when it failed. */
async function git(runner: ChildRunner, cwd: string, args: string[], maxChars: number): Promise<string | undefined> {
  let out = '';
  const result = await runner.run({
    command: 'git',
    args,
    cwd,
    // Read-only: no index refresh, no index.lock while the agent may still hold the project.
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    timeoutMs: GIT_TIMEOUT_MS,
    onStdout: (chunk) => {
      if (out.length <= maxChars) out += chunk.toString('utf8');
    },
  });
  return result.exitCode === 0 ? out : undefined;
}
