/**
 * claude's session flags in a headless supervised run, with the real claude against the scripted
 * model server: whatever session the first turn is in, the feedback reaches the agent's own
 * session, the turns before it are in that session's history, and the exit code tells the truth.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { lastToolResults, reviewStep } from '../support/review-script.js';
import { REVIEW_MESSAGE_MARK, type ModelServer, type RecordedRequest, type Reply } from '../support/model-server.js';

const FEEDBACK = 'FEEDBACK-7Q: the parser tests are still missing';
const EARLIER = 'EARLIER-TASK-51: set up the parser';
const TASK = 'NOW-TASK-88: finish the parser';
const SESSION_ID = '3f2b8c1e-5d4a-4e6f-8a9b-0c1d2e3f4a5b';

interface Row {
  name: string;
  /** What exists before the supervised run; returns the earlier session's id, if any. */
  before?: (t: Tools) => Promise<string | undefined>;
  args: (earlier: string | undefined) => string[];
  /** The first turn continues the earlier session's history. */
  continuesEarlier: boolean;
  /** The session id the run must end in: the earlier one, a fixed one, or a new one. */
  endsIn: 'earlier' | 'new' | typeof SESSION_ID;
}

interface Tools {
  world: ClaudeWorld;
  server: ModelServer;
  claude(args: string[], input: string): Promise<string>;
}

const earlierPlainSession =
  (extra: string[] = []) =>
  async (t: Tools) =>
    t.claude(['-p', '--output-format', 'stream-json', '--verbose', ...extra], EARLIER);

/** An earlier supervised run, whose review forked the session: `--continue` must not pick the fork. */
const earlierSupervisedRun = async (t: Tools) => {
  const run = await runCcc(t.world, ['--supervisor', '-p', EARLIER]);
  expect(run.code).toBe(0);
  return /ccc: session ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
};

const rows: Row[] = [
  { name: '--continue after an earlier supervised run', before: earlierSupervisedRun, args: () => ['--continue'], continuesEarlier: true, endsIn: 'earlier' },
  { name: '-c after an earlier supervised run', before: earlierSupervisedRun, args: () => ['-c'], continuesEarlier: true, endsIn: 'earlier' },
  { name: '--resume <id>', before: earlierPlainSession(), args: (id) => ['--resume', id!], continuesEarlier: true, endsIn: 'earlier' },
  { name: '-r <title>', before: earlierPlainSession(['-n', 'parser-work']), args: () => ['-r', 'parser-work'], continuesEarlier: true, endsIn: 'earlier' },
  {
    name: '--resume=<id> --fork-session',
    before: earlierPlainSession(),
    args: (id) => [`--resume=${id}`, '--fork-session'],
    continuesEarlier: true,
    endsIn: 'new',
  },
  { name: '--continue --fork-session', before: earlierSupervisedRun, args: () => ['--continue', '--fork-session'], continuesEarlier: true, endsIn: 'new' },
  { name: '--session-id <uuid>', args: () => ['--session-id', SESSION_ID], continuesEarlier: false, endsIn: SESSION_ID },
  {
    name: '--resume <id> --fork-session --session-id <uuid>',
    before: earlierPlainSession(),
    args: (id) => ['--resume', id!, '--fork-session', '--session-id', SESSION_ID],
    continuesEarlier: true,
    endsIn: SESSION_ID,
  },
  { name: 'a new session (no flag)', args: () => [], continuesEarlier: false, endsIn: 'new' },
];

describe('headless supervised runs with claude session flags', () => {
  /** Agents answer with their turn's number; reviews answer from the queue, then confirm. */
  async function setup(rig: Rig, options: { env?: NodeJS.ProcessEnv; reviewerRunsFirst?: string } = {}): Promise<Tools> {
    let agentTurn = 0;
    queue.length = 0;
    const { server, world: w } = await rig.start(
      (r): Reply => {
        if (r.kind === 'review' && options.reviewerRunsFirst && reviewStep(r) === 0)
          return { toolUse: { name: 'Bash', input: { command: options.reviewerRunsFirst } } };
        if (r.kind === 'review') return { verdict: queue.shift() ?? { completed: true, feedback: 'done now' } };
        return { text: `AGENT-REPLY-${agentTurn++}` };
      },
      { env: options.env },
    );
    return {
      world: w,
      server,
      claude: (args, input) =>
        new Promise((resolve, reject) => {
          const child = spawn(claudeBin, args, { cwd: w.cwd, env: w.env });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.on('error', reject);
          child.on('close', () => resolve(/"session_id":"([0-9a-f-]{36})"/.exec(out)?.[1] ?? ''));
          child.stdin.end(input);
        }),
    };
  }

  it.for(rows)(
    '$name: the feedback reaches the agent in its own session, after its earlier turns; exit 0 only once confirmed',
    // An earlier run, then the supervised one: four claude processes or more, minutes on a loaded machine.
    { timeout: 180_000 },
    async (row, { rig }) => {
      const t = await setup(rig);
      const earlier = await row.before?.(t);
      const before = t.server.requests.length;
      // The first review of this run finds the work unfinished; the second confirms.
      const run = await runWithReviews(t, [{ completed: false, feedback: FEEDBACK }], ['--supervisor', '-p', TASK, '--', ...row.args(earlier)]);
      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);

      const requests = t.server.requests.slice(before);
      const agent = requests.filter((r) => r.kind === 'agent');
      const reviews = requests.filter((r) => r.kind === 'review');
      expect(reviews).toHaveLength(2);
      // Two agent turns: the task, then the feedback; neither in a reviewer's conversation.
      expect(agent).toHaveLength(2);
      for (const request of agent) expect(request.text).not.toContain(REVIEW_MESSAGE_MARK);
      const [first, second] = agent as [RecordedRequest, RecordedRequest];
      expect(first.lastUserText).toContain(TASK);
      expect(second.lastUserText).toContain(FEEDBACK);
      // The turn with the feedback holds this run's task and the agent's answer to it ...
      expect(second.text).toContain(TASK);
      expect(second.text).toContain(replyIn(first, t));
      // ... and, when the flags chose an earlier session, that session's history.
      if (row.continuesEarlier) {
        expect(first.text).toContain(EARLIER);
        expect(second.text).toContain(EARLIER);
      } else expect(second.text).not.toContain(EARLIER);
      // The second review forked the session that holds the feedback.
      expect(reviews[1]!.text).toContain(FEEDBACK);

      const id = /ccc: session ([0-9a-f-]{36}), log (\S+)/.exec(run.stderr);
      expect(id, run.stderr).not.toBeNull();
      if (row.endsIn === 'earlier') expect(id![1]).toBe(earlier);
      else if (row.endsIn === SESSION_ID) expect(id![1]).toBe(SESSION_ID);
      else expect(id![1]).not.toBe(earlier);
      expect(fs.existsSync(id![2]!)).toBe(true);
      expect(run.stderr).toContain(`ccc --supervisor -p "<next task>" -- --resume ${id![1]}`);
    },
  );

  it('-r without a session: claude refuses it in print mode, and ccc exits with its code and message (no review)', async ({ rig }) => {
    const t = await setup(rig);
    const run = await runCcc(t.world, ['--supervisor', '-p', TASK, '--', '-r']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--resume requires a valid session ID or session title/);
    expect(t.server.byKind('review')).toHaveLength(0);
  });

  it.for([['--no-session-persistence'], ['--bg'], ['--cloud'], ['--output-format', 'json'], ['-p']])(
    '%s cannot be supervised: exit 2 before claude starts',
    async (flag, { rig }) => {
      const t = await setup(rig);
      const run = await runCcc(t.world, ['--supervisor', '-p', TASK, '--', ...flag]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`claude's ${flag[0]} cannot be used under supervision`);
      expect(t.server.requests).toHaveLength(0);
    },
  );

  it('--worktree: later turns and the reviewer are in the worktree the session moved to', async ({ rig }) => {
    const git = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
    const t = await setup(rig, { env: git, reviewerRunsFirst: 'pwd' });
    await new Promise((resolve) =>
      spawn('sh', ['-c', 'git init -q . && git add -A && git commit -qm init'], { cwd: t.world.cwd, env: t.world.env }).on('close', resolve),
    );
    const run = await runWithReviews(t, [{ completed: false, feedback: FEEDBACK }], ['--supervisor', '-p', TASK, '--', '-w', 'wt1']);
    expect(run.code).toBe(0);
    const worktree = path.join(t.world.cwd, '.claude', 'worktrees', 'wt1');
    // Each reviewer ran `pwd`: it verified the worktree, not the checkout ccc started in.
    const answers = t.server.byKind('review').filter((r) => reviewStep(r) === 1);
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(lastToolResults(answer).map((result) => result.text.trim())).toEqual([worktree]);
    const agent = t.server.byKind('agent');
    expect(agent[1]!.lastUserText).toContain(FEEDBACK);
    expect(agent[1]!.text).toContain(worktree);
  });
});

/** The reviews of the next run answer from `verdicts` (then confirm). */
async function runWithReviews(t: Tools, verdicts: Array<{ completed: boolean; feedback: string }>, args: string[]) {
  queue.splice(0, queue.length, ...verdicts);
  return runCcc(t.world, args);
}

/** The scripted agent's reply to `request`: the reply the server sent right after it. */
function replyIn(request: RecordedRequest, t: Tools): string {
  const agent = t.server.byKind('agent');
  return `AGENT-REPLY-${agent.indexOf(request)}`;
}

const queue: Array<{ completed: boolean; feedback: string }> = [];
