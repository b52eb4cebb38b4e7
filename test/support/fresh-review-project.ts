/**
 * The world of the fresh-review tests (headless and interactive): a git project whose committed
 * `add` is wrong, an agent that fixes it with one real Bash call (fix, commit, new notes file), and
 * the model's 400 "prompt is too long" that makes ccc review afresh. Each test names its own
 * markers, so what a review request holds is traced to the step that wrote it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { isToolResultTurn, type RecordedRequest, type Reply } from './model-server.js';

export const tooLong: Reply = { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } };
const NODE_TEST = "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\n";

function git(cwd: string, ...args: string[]) {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

export interface FreshMarks {
  fixed: string;
  commit: string;
  newFile: string;
  /** The uncommitted note in the project before the task (or session) began. */
  oldNote: string;
}

export function freshReviewWorld(marks: FreshMarks) {
  /** The agent's work, one Bash call: it fixes `add`, commits the fix, and writes a new notes file. */
  const agentWork = `printf 'exports.add = (a, b) => a + b; // ${marks.fixed}\\n' > add.js && git -c user.name=a -c user.email=a@example.com commit -qam '${marks.commit} fix add' && printf '${marks.newFile}: add now adds.\\n' > NOTES.md`;
  return {
    agentWork,
    /** Fixes add with a real Bash call, then says so. */
    agent: (r: RecordedRequest): Reply =>
      isToolResultTurn(r) ? { text: 'Fixed add.' } : { toolUse: { name: 'Bash', input: { command: agentWork, description: 'fix add' } } },
    /** A git project whose committed `add` is wrong, with an uncommitted note from before. */
    project: (cwd: string) => {
      fs.mkdirSync(path.join(cwd, 'test'));
      fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node --test' } }));
      fs.writeFileSync(path.join(cwd, 'test', 'add.test.js'), `${NODE_TEST}test('adds', () => assert.strictEqual(add(2, 3), 5));\n`);
      fs.writeFileSync(path.join(cwd, 'add.js'), 'exports.add = (a, b) => a - b;\n');
      git(cwd, 'init', '-q');
      git(cwd, 'add', '.');
      git(cwd, 'commit', '-qm', 'start');
      fs.writeFileSync(path.join(cwd, 'OLD.md'), `${marks.oldNote}: before.\n`);
    },
  };
}
