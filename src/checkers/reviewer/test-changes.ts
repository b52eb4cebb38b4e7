/**
 * The tests the agent weakened since the task began: the project now against the task's baseline
 * (task-baseline.ts), each changed file that belongs to the test suite judged by weakening.ts. In
 * a git work tree the baseline's tree against a tree of the work tree now, written to the
 * baseline's own object store (edits, new and deleted files, committed or not); without a
 * baseline, the checked-out commit's tree, the work tree written to a store of its own that is
 * removed afterwards. Outside git the baseline holds each file's size and modification time only,
 * so what changed in a file cannot be read: an existing file of the suite that changed or went is
 * named as such. Never throws: what cannot be read is no finding.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildRunner } from '../../process/child-process.js';
import { readOnlyGitText } from '../../process/read-only-git.js';
import { baselineGitEnv, projectFiles, workTreeObject, type TaskBaseline } from './task-baseline.js';
import { kindOf, weakeningsOf, type FileChange } from './weakening.js';

/** One file of the suite the agent changed in a way that can make tests pass without the work, and how. */
interface WeakenedTest {
  file: string;
  findings: string[];
}

export interface ChangedTests {
  weakened: WeakenedTest[];
  /** The diff of those files, for the reviewer to judge (bounded). */
  diff: string;
  /** What the change is against: `the task's start (<time>)` or `the checked-out commit`. */
  since: string;
}

const MAX_FILES = 200;
const MAX_DIFF_CHARS = 20_000;
/** Files whose meaning is their whole text: read before and after. */
const WHOLE_TEXT = new Set(['package', 'makefile', 'pytest-config']);

export interface ChangedTestsOptions {
  baseline?: TaskBaseline;
  runner?: ChildRunner;
}

/** The weakened tests of the project at `cwd`; undefined when there is nothing to compare with. */
export async function changedTests(cwd: string, options: ChangedTestsOptions = {}): Promise<ChangedTests | undefined> {
  try {
    if (options.baseline?.kind === 'files') return await fileChanges(cwd, options.baseline);
    return await gitChanges(cwd, options);
  } catch {
    return undefined;
  }
}

async function gitChanges(cwd: string, { baseline, runner }: ChangedTestsOptions): Promise<ChangedTests | undefined> {
  const git = baseline?.kind === 'git' ? baseline : undefined;
  const scratch = git ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'ccc-changes-'));
  try {
    const objects = git?.objects ?? scratch!;
    const env = await baselineGitEnv(cwd, objects, runner);
    if (!env) return undefined;
    const run = (args: string[], maxChars = 1_000_000) => readOnlyGitText(args, { cwd, runner, env, maxBytes: maxChars * 4 });
    const base =
      git && (await run(['cat-file', '-e', `${git.tree}^{tree}`], 10)) !== undefined
        ? git.tree
        : (await run(['rev-parse', '--verify', '-q', 'HEAD^{tree}']))?.trim();
    if (!base) return undefined;
    const now = await workTreeObject(cwd, objects, runner);
    if (!now) return undefined;
    const listed = await run(['diff', '--no-color', '--no-ext-diff', '--find-renames', '--name-status', '-z', base, now]);
    const entries = nameStatus(listed ?? '')
      .filter((e) => kindOf(e.file) !== undefined || (e.from !== undefined && kindOf(e.from) !== undefined))
      .slice(0, MAX_FILES);
    const weakened: WeakenedTest[] = [];
    const paths: string[] = [];
    for (const { from, ...entry } of entries) {
      const files = from === undefined ? [entry.file] : [from, entry.file];
      const diff = (await run(['diff', '--no-color', '--no-ext-diff', '--find-renames', '-U0', base, now, '--', ...files])) ?? '';
      const whole = WHOLE_TEXT.has(kindOf(entry.file) ?? '');
      const change: FileChange = {
        ...entry,
        ...changedLines(diff),
        ...(whole && entry.status !== 'added' ? { before: await run(['cat-file', 'blob', `${base}:${from ?? entry.file}`]) } : {}),
        ...(whole && entry.status !== 'deleted' ? { after: await run(['cat-file', 'blob', `${now}:${entry.file}`]) } : {}),
      };
      const findings = weakeningsOf(change);
      if (findings.length) {
        weakened.push({ file: entry.file, findings });
        paths.push(...files);
      }
    }
    if (weakened.length === 0) return { weakened, diff: '', since: since(git) };
    const diff = (await run(['diff', '--no-color', '--no-ext-diff', '--find-renames', base, now, '--', ...paths], MAX_DIFF_CHARS + 1)) ?? '';
    return { weakened, diff: bounded(diff, `git diff ${base.slice(0, 12)} -- <file>`), since: since(git) };
  } finally {
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  }
}

function since(git: Extract<TaskBaseline, { kind: 'git' }> | undefined): string {
  return git ? `the task's start (${git.at})` : 'the checked-out commit (ccc has no record of the project when the task began)';
}

/** `git diff --name-status -z`: status, NUL, path, NUL, …; a rename or copy (`R100`, `C75`) has the old path, then the new. */
function nameStatus(text: string): Array<{ file: string; from?: string; status: FileChange['status'] }> {
  const parts = text.split('\0');
  const out: Array<{ file: string; from?: string; status: FileChange['status'] }> = [];
  for (let i = 0; i + 1 < parts.length;) {
    const code = parts[i]![0];
    if (code === 'R' || code === 'C') {
      out.push({ from: parts[i + 1]!, file: parts[i + 2] ?? parts[i + 1]!, status: code === 'C' ? 'added' : 'modified' });
      i += 3;
      continue;
    }
    out.push({ file: parts[i + 1]!, status: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified' });
    i += 2;
  }
  return out;
}

/** The `-`/`+` lines of a zero-context diff of one file. */
function changedLines(diff: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith('-')) removed.push(line.slice(1));
    else if (line.startsWith('+')) added.push(line.slice(1));
  }
  return { removed, added };
}

/** Outside git: the files of the suite that existed when the task began and changed or went (what changed in them is not known). */
async function fileChanges(cwd: string, baseline: Extract<TaskBaseline, { kind: 'files' }>): Promise<ChangedTests> {
  const { files } = await projectFiles(cwd);
  const now = new Map(files.map(([file, size, mtime]) => [file, { size, mtime }]));
  const weakened: WeakenedTest[] = [];
  for (const [file, size, mtime] of baseline.files) {
    const kind = kindOf(file);
    if (kind === undefined) continue;
    const is = now.get(file);
    if (is && is.size === size && is.mtime === mtime) continue;
    const what = is ? 'changed' : 'removed';
    weakened.push({
      file,
      findings: [`${kind === 'fixture' ? 'a fixture' : 'a file of the test suite'} ${what} (not a git work tree: what changed in it cannot be read)`],
    });
  }
  const before = new Set(baseline.files.map(([file]) => file));
  for (const [file] of files)
    if (!before.has(file) && (kindOf(file) === 'conftest' || kindOf(file) === 'runner-config' || kindOf(file) === 'pytest-config'))
      weakened.push({ file, findings: [`${path.posix.basename(file)} added: it configures how the tests run`] });
  return { weakened, diff: '', since: `the task's start (${baseline.at})` };
}

function bounded(text: string, more: string): string {
  return text.length > MAX_DIFF_CHARS ? `${text.slice(0, MAX_DIFF_CHARS)}\n[… cut here; \`${more}\` shows the rest]\n` : text;
}
