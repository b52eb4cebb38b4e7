import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { feedbackTokens, sameFeedback } from '../../src/loop/feedback-similarity.js';
import { noProgressGuard } from '../../src/loop/no-progress.js';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import { fileProgressStore, memoryProgressStore, progressPath } from '../../src/loop/progress-store.js';
import { workTreeFingerprint } from '../../src/loop/work-tree-fingerprint.js';
import { runProcess } from '../support/run-process.js';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'no-progress-stop.mjs');
const STOP = 'no progress: the checker gave the same feedback 3 times in a row and the work tree did not change';

let root: string;
let project: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-progress-')));
  project = path.join(root, 'project');
  fs.mkdirSync(project);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function gitRepo(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'start');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  git('add', 'a.txt');
}

const input = (iteration: number, feedback: string, checker = 'claude') => ({
  sessionId: 'sess-1',
  cwd: project,
  iteration,
  verdict: { completed: false, feedback },
  checker,
});

describe('the no-progress guard', () => {
  it('stops at the third essentially identical feedback while the git work tree does not change', async () => {
    gitRepo(project);
    const guard = noProgressGuard({ limit: 3, store: memoryProgressStore() });
    expect(await guard.afterVerdict(input(1, 'npm test fails: 3 of 40 tests failed in 1.2s'))).toBeUndefined();
    expect(await guard.afterVerdict(input(2, 'npm test fails: 2 of 40 tests failed in 0.9s'))).toBeUndefined();
    expect(await guard.afterVerdict(input(3, 'NPM test fails:   3 of 41 tests failed in 1.4s'))).toEqual({ reason: 'no-progress', message: STOP });
  });

  it('does not stop when the work tree changed between reviews (tracked edit, untracked file content)', async () => {
    gitRepo(project);
    const guard = noProgressGuard({ limit: 3, store: memoryProgressStore() });
    const same = 'the parser still rejects empty input';
    await guard.afterVerdict(input(1, same));
    fs.writeFileSync(path.join(project, 'a.txt'), 'two\n');
    await guard.afterVerdict(input(2, same));
    expect(await guard.afterVerdict(input(3, same))).toBeUndefined(); // the edit is inside the last three
    fs.writeFileSync(path.join(project, 'new.txt'), 'x');
    await guard.afterVerdict(input(4, same));
    fs.writeFileSync(path.join(project, 'new.txt'), 'xy'); // an untracked file's content changed
    expect(await guard.afterVerdict(input(5, same))).toBeUndefined();
    expect(await guard.afterVerdict(input(6, same))).toBeUndefined();
    expect(await guard.afterVerdict(input(7, same))).toEqual({ reason: 'no-progress', message: STOP });
  });

  it('does not stop for different feedback, another checker, or a new task', async () => {
    const guard = noProgressGuard({ limit: 3, store: memoryProgressStore(), fingerprint: async () => 'unchanged' });
    await guard.afterVerdict(input(1, 'the login form has no validation'));
    await guard.afterVerdict(input(2, 'the login form has no validation'));
    expect(await guard.afterVerdict(input(3, 'the README does not document the new flag'))).toBeUndefined();
    await guard.afterVerdict(input(4, 'the README does not document the new flag', 'rule'));
    expect(await guard.afterVerdict(input(5, 'the README does not document the new flag'))).toBeUndefined();
    // A new user prompt restarts the iteration count: the history of the old task is dropped.
    await guard.afterVerdict(input(6, 'x y z'));
    await guard.afterVerdict(input(1, 'x y z'));
    expect(await guard.afterVerdict(input(2, 'x y z'))).toBeUndefined();
    expect(await guard.afterVerdict(input(3, 'x y z'))).toEqual({ reason: 'no-progress', message: STOP });
  });

  // Runs the built modules (dist/), like the other multi-process tests: `npm test` builds first.
  it('keeps its history on disk, so separate Stop-hook processes add up (atomic JSON beside the session state)', async () => {
    const configDir = path.join(root, 'config');
    const run = async (iteration: number) =>
      JSON.parse((await runProcess(process.execPath, [fixture, configDir, 'sess-9', project, String(iteration), 'tests still fail'])).stdout) as unknown;
    expect(await run(1)).toBeNull();
    expect(await run(2)).toBeNull();
    expect(await run(3)).toEqual({ reason: 'no-progress', message: STOP });
    const file = progressPath(configDir, 'sess-9');
    expect(file).toBe(path.join(configDir, 'ccc', 'progress-sess-9.json'));
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect((await fileProgressStore(configDir).load('sess-9')).map((e) => e.iteration)).toEqual([1, 2, 3]);
  });

  it('a damaged history file means starting over, never a crash', async () => {
    const configDir = path.join(root, 'config');
    const store = fileProgressStore(configDir);
    await store.save('sess-2', []);
    fs.writeFileSync(progressPath(configDir, 'sess-2'), '{ not json');
    expect(await store.load('sess-2')).toEqual([]);
    const guard = noProgressGuard({ limit: 2, store, fingerprint: async () => 'same' });
    expect(await guard.afterVerdict({ ...input(1, 'a'), sessionId: 'sess-2' })).toBeUndefined();
    expect(await guard.afterVerdict({ ...input(2, 'a'), sessionId: 'sess-2' })).toMatchObject({ reason: 'no-progress' });
  });

  it('a damaged history is said once in the log, with what it costs; a missing one is not damage', async () => {
    const configDir = path.join(root, 'config');
    const logger = createRecordingLogger();
    const store = fileProgressStore(configDir, logger);
    expect(await store.load('sess-new')).toEqual([]);
    expect(logger.lines).toEqual([]);
    await store.save('sess-3', []);
    fs.writeFileSync(progressPath(configDir, 'sess-3'), '{ not json');
    expect(await store.load('sess-3')).toEqual([]);
    expect(await store.load('sess-3')).toEqual([]);
    expect(logger.lines.map((l) => [l.level, l.message.replace(/ \(.*\)/, ' (…)')])).toEqual([
      ['warn', "the no-progress guard's history is not JSON (…); the guard counts again from this stop"],
    ]);
    const entry = { iteration: 1, checker: 'claude', tokens: ['a'], fingerprint: 'f', at: '' };
    fs.writeFileSync(progressPath(configDir, 'sess-4'), JSON.stringify({ entries: [entry, { iteration: 'two' }] }));
    expect(await store.load('sess-4')).toEqual([entry]);
    expect(logger.lines.at(-1)!.message).toBe("the no-progress guard's history has 1 damaged entries; the guard counts on without them");
  });
});

describe('the work tree fingerprint', () => {
  it('outside git: changes with a file edit, ignores node_modules and .git', async () => {
    const fingerprint = workTreeFingerprint();
    fs.writeFileSync(path.join(project, 'a.txt'), '1');
    const first = await fingerprint(project);
    expect(first).toMatch(/^files:/);
    fs.mkdirSync(path.join(project, 'node_modules', 'x'), { recursive: true });
    fs.writeFileSync(path.join(project, 'node_modules', 'x', 'i.js'), '1');
    expect(await fingerprint(project)).toBe(first);
    fs.writeFileSync(path.join(project, 'a.txt'), '12');
    expect(await fingerprint(project)).not.toBe(first);
  });

  it('in git: changes with a staged change and an unstaged one, from a subdirectory too', async () => {
    gitRepo(project);
    fs.mkdirSync(path.join(project, 'sub'));
    const fingerprint = workTreeFingerprint();
    const first = await fingerprint(path.join(project, 'sub'));
    expect(first).toMatch(/^git:/);
    expect(await fingerprint(path.join(project, 'sub'))).toBe(first);
    fs.writeFileSync(path.join(project, 'a.txt'), 'changed\n');
    expect(await fingerprint(path.join(project, 'sub'))).not.toBe(first);
  });
});

describe('feedback similarity', () => {
  it('ignores case, numbers, paths and spacing; tells different feedback apart', () => {
    expect(sameFeedback(feedbackTokens('3 tests fail in /tmp/x1/a.test.ts'), feedbackTokens('12 Tests  fail in /tmp/y2/a.test.ts'))).toBe(true);
    expect(sameFeedback(feedbackTokens('add input validation to the login form'), feedbackTokens('document the --verbose flag in the README'))).toBe(false);
    expect(sameFeedback(feedbackTokens(''), feedbackTokens(''))).toBe(true);
  });

  it('is reflexive and symmetric (fuzzed)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const ta = feedbackTokens(a);
        const tb = feedbackTokens(b);
        expect(sameFeedback(ta, ta)).toBe(true);
        expect(sameFeedback(ta, tb)).toBe(sameFeedback(tb, ta));
      }),
    );
  });
});
