/**
 * A fingerprint of the project's work tree, to tell "the agent changed something" from "nothing
 * moved". In a git work tree: a hash of `git status` (untracked files included, with their sizes
 * and modification times, since their content is in no diff), the unstaged and the staged diff.
 * Elsewhere: a hash of every file's path, size and modification time under the directory, skipping
 * `node_modules` and `.git`, bounded to MAX_ENTRIES entries so a huge tree costs little.
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { childRunner, type ChildRunner } from '../process/child-process.js';
import { readOnlyGit } from '../process/read-only-git.js';

export type WorkTreeFingerprint = (cwd: string) => Promise<string>;

const MAX_ENTRIES = 20_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

export function workTreeFingerprint(deps: { runner?: ChildRunner } = {}): WorkTreeFingerprint {
  const runner = deps.runner ?? childRunner;
  return async (cwd) => (await gitFingerprint(cwd, runner)) ?? (await walkFingerprint(cwd));
}

async function gitFingerprint(cwd: string, runner: ChildRunner): Promise<string | undefined> {
  const top = await git(runner, cwd, ['rev-parse', '--show-toplevel']);
  if (top === undefined) return undefined;
  const hash = createHash('sha256');
  const status = await git(runner, cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (status === undefined) return undefined;
  hash.update(status);
  for (const file of untrackedFiles(status)) await hashStat(hash, top.toString('utf8').trim(), file);
  for (const args of [
    ['diff', '--binary', '--no-color', '--no-ext-diff'],
    ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'],
  ]) {
    const diff = await git(runner, cwd, args);
    if (diff === undefined) return undefined;
    hash.update(diff);
  }
  return `git:${hash.digest('hex')}`;
}

/** The output of a git command, or undefined when it failed (not a work tree, no git installed). */
function git(runner: ChildRunner, cwd: string, args: string[]): Promise<Buffer | undefined> {
  return readOnlyGit(args, { cwd, runner });
}

/** `?? path` entries of `git status --porcelain -z`, relative to the repository root. */
function untrackedFiles(status: Buffer): string[] {
  return status
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry.startsWith('?? '))
    .map((entry) => entry.slice(3));
}

async function walkFingerprint(root: string): Promise<string> {
  const hash = createHash('sha256');
  const pending = [''];
  let seen = 0;
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const dir = pending.shift()!;
    let entries;
    try {
      entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: its absence is part of the fingerprint anyway
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) break;
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        pending.push(relative);
        hash.update(`d ${relative}\0`);
      } else await hashStat(hash, root, relative);
    }
  }
  return `files:${hash.digest('hex')}`;
}

async function hashStat(hash: Hash, root: string, relative: string): Promise<void> {
  try {
    const stat = await fs.lstat(path.join(root, relative));
    hash.update(`f ${relative} ${stat.size} ${stat.mtimeMs}\0`);
  } catch {
    hash.update(`- ${relative}\0`);
  }
}
