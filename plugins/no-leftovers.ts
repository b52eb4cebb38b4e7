/**
 * Worked example plugin: no leftovers. Refuses the stop while the agent's changes add a `TODO` or
 * `FIXME`, or skip or focus tests (`it.skip`, `describe.skip`, `test.only`, `xit`,
 * `@pytest.mark.skip`, `t.Skip(`, …). Only what the agent changed counts: the lines added since
 * HEAD in tracked files, and the whole of new untracked files; a TODO that was already there
 * before is not a leftover. Outside a git repository nothing tells what changed: it says so and
 * passes. A plain checker object (no options), to show the simplest plugin shape.
 *
 *   supervisor: { checkers: ['ccc-supervisor/plugins/no-leftovers', 'claude'] }
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { defineChecker } from 'ccc-supervisor';

const run = promisify(execFile);

export interface Leftover {
  file: string;
  line: number;
  what: string;
  text: string;
}

const LEFTOVERS: Array<{ what: string; pattern: RegExp }> = [
  { what: 'TODO', pattern: /\bTODO\b/ },
  { what: 'FIXME', pattern: /\bFIXME\b/ },
  { what: 'skipped test', pattern: /\b(?:it|test|describe|suite|context)\.(?:skip|todo)\s*\(/ },
  { what: 'focused test', pattern: /\b(?:it|test|describe|suite|context)\.only\s*\(/ },
  { what: 'skipped test', pattern: /(?<![.\w])x(?:it|test|describe|context)\s*\(/ },
  { what: 'focused test', pattern: /(?<![.\w])f(?:it|describe)\s*\(/ /* not model.fit( */ },
  { what: 'skipped test', pattern: /@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.skip\s*\(|@unittest\.skip/ },
  { what: 'skipped test', pattern: /\bt\.Skip(?:Now|f)?\s*\(/ },
];

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_LISTED = 30;

export default defineChecker({
  name: 'no-leftovers',
  async check(ctx, signal) {
    if (!(await isGitWorkTree(ctx.cwd, signal))) {
      return { completed: true, feedback: `${ctx.cwd} is not a git repository, so no-leftovers cannot tell which files changed; passing without a check.` };
    }
    const found = await findLeftovers(ctx.cwd, signal);
    if (found.length === 0) return { completed: true, feedback: 'no TODO, FIXME, skipped or focused test in the changed files' };
    const listed = found.slice(0, MAX_LISTED).map((l) => `- ${l.file}:${l.line}: ${l.what}: ${l.text}`);
    if (found.length > MAX_LISTED) listed.push(`- … and ${found.length - MAX_LISTED} more`);
    return {
      completed: false,
      feedback: `Your changes leave unfinished work behind (${found.length}):\n${listed.join('\n')}\nFinish it or remove it, and un-skip or un-focus the tests.`,
    };
  },
});

/** Leftovers in the lines added since HEAD and in untracked files, as file:line. */
export async function findLeftovers(cwd: string, signal?: AbortSignal): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const added of await addedLines(cwd, signal)) found.push(...matchLine(added.file, added.line, added.text));
  for (const file of await untrackedFiles(cwd, signal)) {
    const text = await readText(path.join(cwd, file));
    text?.split(/\r?\n/).forEach((line, i) => found.push(...matchLine(file, i + 1, line)));
  }
  return found;
}

function matchLine(file: string, line: number, text: string): Leftover[] {
  const hit = LEFTOVERS.find((l) => l.pattern.test(text));
  return hit ? [{ file, line, what: hit.what, text: text.trim().slice(0, 160) }] : [];
}

async function git(cwd: string, args: string[], signal?: AbortSignal): Promise<string> {
  const { stdout } = await run('git', args, { cwd, signal, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
  return stdout;
}

async function isGitWorkTree(cwd: string, signal: AbortSignal): Promise<boolean> {
  try {
    return (await git(cwd, ['rev-parse', '--is-inside-work-tree'], signal)).trim() === 'true';
  } catch (error) {
    if (signal.aborted) throw error;
    return false;
  }
}

/** Added lines (with their new line numbers) of `git diff HEAD`, staged and unstaged together. */
async function addedLines(cwd: string, signal?: AbortSignal): Promise<Array<{ file: string; line: number; text: string }>> {
  const hasHead = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD'], signal).then(
    () => true,
    () => false,
  );
  // Before the first commit there is nothing to compare with: every staged line is new.
  const diff = await git(cwd, ['diff', hasHead ? 'HEAD' : '--cached', '--unified=0', '--no-color', '--no-ext-diff', '--relative'], signal);
  const lines: Array<{ file: string; line: number; text: string }> = [];
  let file: string | undefined;
  let next = 0;
  for (const raw of diff.split('\n')) {
    if (raw.startsWith('+++ ')) file = raw === '+++ /dev/null' ? undefined : raw.slice(4).replace(/^b\//, '');
    else if (raw.startsWith('@@')) next = Number(/\+(\d+)/.exec(raw)?.[1] ?? 0);
    else if (raw.startsWith('+') && file !== undefined) lines.push({ file, line: next++, text: raw.slice(1) });
  }
  return lines;
}

async function untrackedFiles(cwd: string, signal?: AbortSignal): Promise<string[]> {
  return (await git(cwd, ['ls-files', '--others', '--exclude-standard', '-z'], signal)).split('\0').filter(Boolean);
}

/** The file as text; undefined for binaries, huge files and files that vanished. */
async function readText(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    const bytes = await fs.readFile(file);
    return bytes.includes(0) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
