/**
 * `ccc kanban` end to end: the built CLI, the real claude as every role agent, the scripted model
 * server playing the agents. What docs/kanban.md promises for `ccc kanban`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import YAML from 'yaml';
import type { ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import { agentOf, answer, firstRequests, read, snapshot, task, writeProject, type AgentRequestInfo } from './kanban-world.js';

const KANBAN = `# The demo workflow
phase: execute
current: tasks/001-parse.md
tasks:
  - tasks/001-parse.md
  - tasks/002-format.md
`;

const PROJECT = {
  'kanban.yaml': KANBAN,
  'tasks/001-parse.md': task('parse'),
  'tasks/002-format.md': task('format'),
};

/** A Manager that walks the list in order and finishes after the last task. */
function manager(info: AgentRequestInfo): Reply {
  const tasks = ['tasks/001-parse.md', 'tasks/002-format.md'];
  const next = tasks[tasks.indexOf(info.task!) + 1] ?? null;
  return answer({ status: 'ok', message: `reconciled ${info.task}`, tasks, next_task: next });
}

describe('ccc kanban', () => {
  async function setup(rig: Rig, play: (info: AgentRequestInfo, request: RecordedRequest) => Reply, files: Record<string, string> = PROJECT) {
    const server = await rig.server((r) => play(agentOf(r), r));
    const world = rig.world({ server });
    writeProject(world, files);
    return { server, world };
  }

  it('runs a two-task workflow to complete, consulting the Manager after each task (exit 0)', async ({ rig }) => {
    const { server, world } = await setup(rig, (info) => (info.role === 'Manager' ? manager(info) : answer({ status: 'ok', message: `did ${info.task}` })));
    const run = await runCcc(world, ['kanban', 'kanban.yaml']);
    expect(run.stderr).toContain('workflow is complete');
    expect(run.code).toBe(0);

    const calls = firstRequests(server.requests).map((r) => agentOf(r));
    expect(calls.map((c) => `${c.role}${c.reconcile ? ' reconciles' : ''} ${c.task}`)).toEqual([
      'Implementor tasks/001-parse.md',
      'Manager reconciles tasks/001-parse.md',
      'Implementor tasks/002-format.md',
      'Manager reconciles tasks/002-format.md',
    ]);
    // The Manager gets 004's reconciliation inputs: the kanban file, the done task, the task list.
    const reconcile = firstRequests(server.requests)[1]!;
    expect(reconcile.text).toContain('"kanban_file": "kanban.yaml"');
    expect(reconcile.text).toMatch(/"tasks": \[\s*"tasks\/001-parse.md",\s*"tasks\/002-format.md"\s*\]/);

    const kanban = read(world, 'kanban.yaml');
    expect(YAML.parse(kanban)).toEqual({ phase: 'complete', current: null, tasks: ['tasks/001-parse.md', 'tasks/002-format.md'] });
    expect(kanban).toContain('# The demo workflow'); // the user's comment survives ccc's rewrites
    expect(run.stderr).toContain('ccc kanban: tasks/001-parse.md · Implementor …\n');
    expect(run.stderr).toMatch(/ccc kanban: tasks\/002-format\.md · Implementor · ok: did tasks\/002-format\.md \(\d/);
    expect(run.stderr).not.toContain('retry');
    expect(() => read(world, 'SUPERVISOR_LOG.md')).toThrow(/ENOENT/);
  });

  it('retries an answer in the wrong format once with byte-identical input, logs one Retry Event, and goes on', async ({ rig }) => {
    let implementorRuns = 0;
    const { server, world } = await setup(rig, (info) => {
      if (info.role === 'Manager') return manager(info);
      if (info.task === 'tasks/001-parse.md' && !info.nag) implementorRuns += 1;
      if (info.task === 'tasks/001-parse.md' && implementorRuns === 1) return { text: 'All done, the parser works!' };
      return answer({ status: 'ok', message: `did ${info.task}` });
    });
    const run = await runCcc(world, ['kanban', 'kanban.yaml']);
    expect(run.code).toBe(0);

    const first = firstRequests(server.requests).filter((r) => agentOf(r).role === 'Implementor' && agentOf(r).task === 'tasks/001-parse.md');
    expect(first).toHaveLength(2);
    expect(JSON.stringify(first[1]!.body.messages)).toBe(JSON.stringify(first[0]!.body.messages));
    const schemaTool = (r: RecordedRequest) => JSON.stringify(r.body.tools?.find((t) => t.name === 'StructuredOutput'));
    expect(schemaTool(first[1]!)).toBe(schemaTool(first[0]!));

    const log = read(world, 'SUPERVISOR_LOG.md');
    expect(log.match(/^### \[\d{4}-\d\d-\d\dT[\d:.]+Z\] Retry Event$/gm)).toHaveLength(1);
    expect(log).toMatch(/^## Supervisor Log\n\n### \[/);
    expect(log).toContain(
      '**Agent:** Implementor  \n**Task:** tasks/001-parse.md  \n**Attempt:** 1/3  \n**Issue:** Invalid output format: the answer holds no JSON object\n',
    );
    expect(log).toContain('**Expected:**\n```json\n{\n  "type": "object"');
    expect(log).toContain('**Received:**\n```text\nAll done, the parser works!\n```');
    expect(log).toContain('**Action:** Rescheduling with exact same parameters');
    // The progress on stderr numbers that retry as the log does.
    expect(run.stderr).toMatch(
      /ccc kanban: tasks\/001-parse\.md · Implementor · Invalid output format: the answer holds no JSON object; retry 1\/3 with the same input \(SUPERVISOR_LOG\.md\) \(\d/,
    );
    expect(run.stderr).toContain('ccc kanban: tasks/001-parse.md · Implementor · retry 1/3 …\n');
    expect(YAML.parse(read(world, 'kanban.yaml')).phase).toBe('complete');
  });

  it('gives up after three retries of a wrong format: three Retry Events, exit 4, the kanban unchanged', async ({ rig }) => {
    const { server, world } = await setup(rig, (info) =>
      info.role === 'Manager' ? manager(info) : { text: `not json, sorry (${info.nag ? 'nag' : 'first'})` },
    );
    const before = snapshot(world.cwd);
    const run = await runCcc(world, ['kanban', 'kanban.yaml']);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/The Implementor agent \(tasks\/001-parse\.md\) did not answer in the required format after 3 retries/);

    const runs = firstRequests(server.requests).map((r) => agentOf(r));
    expect(runs).toHaveLength(4);
    expect(runs.every((c) => c.role === 'Implementor')).toBe(true);
    const log = read(world, 'SUPERVISOR_LOG.md');
    expect(log.match(/\] Retry Event$/gm)).toHaveLength(3);
    expect(log.match(/^\*\*Attempt:\*\* (\d)\/3 {2}$/gm)).toEqual(['**Attempt:** 1/3  ', '**Attempt:** 2/3  ', '**Attempt:** 3/3  ']);
    expect(log).toContain('] Failure Event');
    // The schema once in full, then a pointer to it in each later entry.
    expect(log.match(/^\*\*Expected:\*\*\n```json\n/gm)).toHaveLength(1);
    expect(log.match(/^\*\*Expected:\*\* the Implementor output schema, in full under "\[[^\]]+\] Retry Event" above$/gm)).toHaveLength(3);
    for (const retry of [1, 2, 3]) expect(run.stderr).toContain(`ccc kanban: tasks/001-parse.md · Implementor · retry ${retry}/3 …\n`);
    const after = snapshot(world.cwd);
    delete after['SUPERVISOR_LOG.md'];
    expect(after).toEqual(before);
  });

  it("stops with exit 5 and the agent's message when an agent is blocked", async ({ rig }) => {
    const { server, world } = await setup(rig, (info) =>
      info.role === 'Manager' ? manager(info) : answer({ status: 'blocked', message: 'BLOCKED-42: the API key for the parser service is missing' }),
    );
    const before = snapshot(world.cwd);
    const run = await runCcc(world, ['kanban', 'kanban.yaml']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('with status blocked: BLOCKED-42: the API key for the parser service is missing');
    expect(firstRequests(server.requests).map((r) => agentOf(r).role)).toEqual(['Implementor']);
    expect(snapshot(world.cwd)).toEqual(before);
  });

  it('refuses a corrupt kanban, a missing task file and an unknown role with exit 2, naming the file, changing nothing', async ({ rig }) => {
    const { server, world } = await setup(rig, () => answer({ status: 'ok', message: 'should never run' }));
    const cases: Array<{ files?: Record<string, string>; remove?: string; error: RegExp }> = [
      { files: { 'kanban.yaml': 'phase: execute\ncurrent: [unclosed\n' }, error: /The kanban file kanban\.yaml is not valid YAML/ },
      {
        files: { 'kanban.yaml': 'phase: shipping\ncurrent: null\ntasks: []\n' },
        error: /The kanban file kanban\.yaml has phase "shipping"; use one of design, plan/,
      },
      { remove: 'tasks/001-parse.md', error: /The task file tasks\/001-parse\.md \(current in kanban\.yaml\) does not exist/ },
      {
        files: { 'tasks/001-parse.md': task('parse', 'Tester') },
        error: /The task file tasks\/001-parse\.md names the unknown role "Tester" in its header; use one of Architect, Manager, Implementor/,
      },
    ];
    for (const { files, remove, error } of cases) {
      writeProject(world, { ...PROJECT, ...files });
      if (remove) fs.rmSync(path.join(world.cwd, remove));
      const before = snapshot(world.cwd);
      const run = await runCcc(world, ['kanban', 'kanban.yaml']);
      expect(run.stderr).toMatch(error);
      expect(run.code).toBe(2);
      expect(snapshot(world.cwd)).toEqual(before);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a roles directory that does not exist: the error names the flag or the setting that named it', async ({ rig }) => {
    const { server, world } = await setup(rig, () => answer({ status: 'ok', message: 'should never run' }));
    const flag = await runCcc(world, ['kanban', 'kanban.yaml', '--roles-dir', 'rolez']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      'The roles directory rolez (--roles-dir) does not exist. Create it with Architect.md, Manager.md and Implementor.md, or leave out --roles-dir to use the built-in role prompts.',
    );
    writeProject(world, { '.cccrc.json': JSON.stringify({ kanban: { roles_dir: 'rolez' } }) });
    const setting = await runCcc(world, ['kanban', 'kanban.yaml']);
    expect(setting.code).toBe(2);
    expect(setting.stderr).toContain(
      'The roles directory rolez (kanban.roles_dir) does not exist. Create it with Architect.md, Manager.md and Implementor.md, or remove kanban.roles_dir from the project config file (ccc config shows which) to use the built-in role prompts.',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('warns at the start about a current that is not among the tasks and a listed task that is not a file', async ({ rig }) => {
    const { server, world } = await setup(rig, () => answer({ status: 'ok', message: 'should never run' }), {
      ...PROJECT,
      'kanban.yaml': 'phase: execute\ncurrent: tasks/001-parse.md\ntasks:\n  - tasks/002-format.md\n  - tasks/003-gone.md\n',
    });
    // No claude: the run ends at that check, after the warnings.
    const run = await runCcc(world, ['kanban', 'kanban.yaml'], { env: { CCC_CLAUDE: path.join(world.root, 'no-such-claude') } });
    expect(run.stderr).toContain(
      'ccc kanban: warning: kanban.yaml: current "tasks/001-parse.md" is not one of its tasks; the Manager gets a task list without it.',
    );
    expect(run.stderr).toContain('ccc kanban: warning: kanban.yaml: tasks lists "tasks/003-gone.md" (tasks/003-gone.md), which is not a file.\n');
    expect(run.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('--supervise: an Implementor answer goes through the checker before the Manager sees it', async ({ rig }) => {
    const FEEDBACK = 'FEEDBACK-K9: the parser has no tests';
    let reviews = 0;
    const { server, world } = await setup(
      rig,
      (info) => {
        if (info.role === 'Reviewer') {
          reviews += 1;
          return { verdict: reviews === 1 ? { completed: false, feedback: FEEDBACK } : { completed: true, feedback: 'verified' } };
        }
        if (info.role === 'Manager') return answer({ status: 'ok', message: 'all done', tasks: ['tasks/001-parse.md'], next_task: null });
        return answer({ status: 'ok', message: info.feedback ? 'added the tests' : 'parser written' });
      },
      { ...PROJECT, 'SUPERVISOR.md': '# Review rules\nREVIEW-RULES-7731: check the work with tools.' },
    );
    const run = await runCcc(world, ['kanban', 'kanban.yaml', '--supervise']);
    expect(run.stderr).toContain('ccc kanban: kanban.yaml (supervised: every Implementor answer is reviewed)');
    // Every line on stderr says it is ccc's.
    expect(run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('ccc'))).toEqual([]);
    expect(run.code).toBe(0);

    const order = firstRequests(server.requests).map((r) => agentOf(r));
    expect(order.map((c) => `${c.role}${c.feedback ? ' (feedback)' : ''}`)).toEqual([
      'Implementor',
      'Reviewer',
      'Implementor (feedback)',
      'Reviewer',
      'Manager',
    ]);
    const resumed = firstRequests(server.requests)[2]!;
    expect(resumed.lastUserText).toContain(FEEDBACK);
    // Resumed in the Implementor's own session: the conversation still holds its task.
    expect(resumed.text).toContain('"task_file": "tasks/001-parse.md"');
    expect(YAML.parse(read(world, 'kanban.yaml'))).toMatchObject({ phase: 'complete', current: null });
    expect(lastKanbanLogLine(world)).toMatch(/\[INFO\] \[kanban\] .*exit_code=0 mode=kanban run ended: /);
  });

  it('--supervise at the iteration limit stops before an Implementor run nothing would review (exit 3, logged)', async ({ rig }) => {
    let reviews = 0;
    const { server, world } = await setup(
      rig,
      (info) => {
        if (info.role === 'Reviewer') {
          reviews += 1;
          // The first feedback carries a title-setting escape sequence, which must not reach the terminal.
          return {
            verdict: { completed: false, feedback: `FEEDBACK-L${reviews}: the parser still has no tests${reviews === 1 ? '\u001b]0;pwned\u0007' : ''}` },
          };
        }
        if (info.role === 'Manager') return answer({ status: 'ok', message: 'all done', tasks: ['tasks/001-parse.md'], next_task: null });
        return answer({ status: 'ok', message: info.feedback ? 'added the tests' : 'parser written' });
      },
      { ...PROJECT, 'SUPERVISOR.md': '# Review rules\nREVIEW-RULES-7731: check the work with tools.' },
    );
    const before = read(world, 'kanban.yaml');
    const run = await runCcc(world, ['kanban', 'kanban.yaml', '--supervise'], { env: { CCC_SUPERVISOR_MAX_ITERATIONS: '2' } });
    expect(run.code, run.stderr).toBe(3);

    // Two reviews, one resumed run between them, and no Implementor run after the last review.
    const order = firstRequests(server.requests).map((r) => agentOf(r));
    expect(order.map((c) => `${c.role}${c.feedback ? ' (feedback)' : ''}`)).toEqual(['Implementor', 'Reviewer', 'Implementor (feedback)', 'Reviewer']);
    expect(run.stderr).toMatch(
      /ccc kanban: The review of tasks\/001-parse\.md ended without confirming the work: the iteration limit \(2\) was reached with the work still incomplete; the Implementor is not run again, since nothing would review that run\. The last feedback is in SUPERVISOR_LOG\.md\.\n/,
    );
    expect(run.stderr).toContain('FEEDBACK-L1: the parser still has no tests');
    expect(run.stderr).not.toContain('\u001b');
    const log = read(world, 'SUPERVISOR_LOG.md');
    expect(log).toMatch(
      /^## Supervisor Log\n\n### \[[^\]]+\] Review Limit Event\n\n\*\*Agent:\*\* Implementor {2}\n\*\*Task:\*\* tasks\/001-parse\.md {2}\n\*\*Reviews:\*\* 2\/2 {2}\n/,
    );
    expect(log).toContain('**Last feedback:**\n```text\nFEEDBACK-L2: the parser still has no tests\n```');
    expect(log).toContain('**Action:** Stopped the workflow before running the Implementor again');
    expect(read(world, 'kanban.yaml')).toBe(before);
    expect(lastKanbanLogLine(world)).toMatch(
      /\[WARN\] \[kanban\] .*exit_code=3 mode=kanban run ended: The review of tasks\/001-parse\.md ended without confirming the work/,
    );
  });

  /** kanban.log's last line: how the run ended. */
  const lastKanbanLogLine = (world: ClaudeWorld) =>
    fs
      .readFileSync(path.join(world.claudeDir, 'ccc', 'kanban.log'), 'utf8')
      .trimEnd()
      .split('\n')
      .pop();

  it('--supervise: a card whose session another live ccc supervises is not reviewed here (exit 2, naming that ccc)', async ({ rig }) => {
    // Another ccc (a `ccc --supervisor -- --continue` would pick the card's session: the project's newest) holds its claim.
    const other = spawn('sleep', ['300']);
    let cardSession = '';
    try {
      const { server, world } = await setup(
        rig,
        (info) => {
          if (info.role === 'Reviewer') return { verdict: { completed: true, feedback: 'verified' } };
          if (info.role === 'Manager') return answer({ status: 'ok', message: 'all done', tasks: ['tasks/001-parse.md'], next_task: null });
          if (!cardSession) {
            // claude may send the request before its transcript is on disk: the reply waits for it (the scenario is synchronous).
            const projects = path.join(world.claudeDir, 'projects');
            const transcripts = () =>
              fs.existsSync(projects) ? fs.readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')) : [];
            const pause = new Int32Array(new SharedArrayBuffer(4));
            for (let i = 0; i < 500 && transcripts().length === 0; i++) Atomics.wait(pause, 0, 0, 20);
            const files = transcripts();
            expect(files).toHaveLength(1);
            cardSession = path.basename(files[0]!, '.jsonl');
            const claims = path.join(world.claudeDir, 'ccc', 'claims');
            fs.mkdirSync(claims, { recursive: true });
            const claim = { pid: other.pid, mode: 'headless', cwd: world.cwd, started_at: 'then' };
            fs.writeFileSync(path.join(claims, `${cardSession}.json`), JSON.stringify(claim));
          }
          return answer({ status: 'ok', message: 'parser written' });
        },
        { ...PROJECT, 'SUPERVISOR.md': '# Review rules\nREVIEW-RULES-7731: check the work with tools.' },
      );
      const before = read(world, 'kanban.yaml');
      const run = await runCcc(world, ['kanban', 'kanban.yaml', '--supervise']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `The review of tasks/001-parse.md did not start: session ${cardSession} is already supervised by ccc (pid ${other.pid}, headless`,
      );
      expect(firstRequests(server.requests).map((r) => agentOf(r).role)).toEqual(['Implementor']);
      expect(read(world, 'kanban.yaml')).toBe(before);
    } finally {
      other.kill();
    }
  }, 180_000);

  it("--supervise: a card's session is claimed while it is reviewed and released after", async ({ rig }) => {
    let claimDuringReview: unknown;
    const { world } = await setup(
      rig,
      (info) => {
        if (info.role === 'Reviewer') {
          const claims = path.join(world.claudeDir, 'ccc', 'claims');
          claimDuringReview = fs.readdirSync(claims).map((f) => JSON.parse(fs.readFileSync(path.join(claims, f), 'utf8')) as { mode: string });
          return { verdict: { completed: true, feedback: 'verified' } };
        }
        if (info.role === 'Manager') return answer({ status: 'ok', message: 'all done', tasks: ['tasks/001-parse.md'], next_task: null });
        return answer({ status: 'ok', message: 'parser written' });
      },
      { ...PROJECT, 'SUPERVISOR.md': '# Review rules\nREVIEW-RULES-7731: check the work with tools.' },
    );
    const run = await runCcc(world, ['kanban', 'kanban.yaml', '--supervise']);
    expect(run.code, run.stderr).toBe(0);
    expect(claimDuringReview).toEqual([expect.objectContaining({ mode: 'kanban' })]);
    expect(fs.readdirSync(path.join(world.claudeDir, 'ccc', 'claims'))).toEqual([]);
  }, 180_000);
});
