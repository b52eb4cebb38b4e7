/**
 * The workflow loop with scripted agents (the fake AgentRunner): the retry rule, what ccc writes
 * into the kanban file, and every way a run ends. The real claude runs in kanban-cli.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { isCccError } from '../../src/errors.js';
import type { AgentInvocation } from '../../src/kanban/agent-runner.js';
import { createFakeAgentRunner, type FakeAgentAnswer } from '../../src/kanban/fake-agent-runner.js';
import { fileRef } from '../../src/kanban/kanban-file.js';
import { loadRolePrompts } from '../../src/kanban/role-prompts.js';
import { eventLog } from '../../src/kanban/event-log.js';
import { runWorkflow, type WorkflowOutcome } from '../../src/kanban/workflow.js';

const TASKS = ['tasks/a.md', 'tasks/b.md'];
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(files: Record<string, string>): void {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-kanban-')));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

const standard = (kanban: object = { phase: 'execute', current: TASKS[0], tasks: TASKS }) => ({
  'kanban.yaml': YAML.stringify(kanban),
  'tasks/a.md': '# a\n\n## Work Log\n',
  'tasks/b.md': '---\nrole: Architect\n---\n# b\n',
});

const roleOf = (call: AgentInvocation) => /^# Role: (\w+)/.exec(call.stdin)?.[1];
const isReconcile = (call: AgentInvocation) => call.stdin.includes('"done_task"');
const ok = (message = 'done'): FakeAgentAnswer => ({ output: { status: 'ok', message } });
const managerNext = (call: AgentInvocation): FakeAgentAnswer => {
  const done = /"done_task": "([^"]+)"/.exec(call.stdin)![1]!;
  return { output: { status: 'ok', message: 'next', tasks: TASKS, next_task: TASKS[TASKS.indexOf(done) + 1] ?? null } };
};

async function run(
  script: (call: AgentInvocation, index: number) => FakeAgentAnswer,
  options: { maxRetries?: number; signal?: AbortSignal; kanbanFile?: string } = {},
) {
  const runner = createFakeAgentRunner(script);
  const kanbanFile = options.kanbanFile ?? 'kanban.yaml';
  const kanban = fileRef(kanbanFile, dir);
  const notes: string[] = [];
  const progress = { started: () => ({ stop: () => {} }), finished: () => {}, note: (m: string) => notes.push(m) };
  const prompts = await loadRolePrompts({ rolesDir: './roles', cwd: dir, setBy: 'default', trusted: [] });
  const outcome: WorkflowOutcome = await runWorkflow({
    kanban,
    cwd: dir,
    prompts,
    claudeArgs: ['--model', 'sonnet'],
    call: {
      runner,
      maxRetries: options.maxRetries ?? 3,
      log: eventLog(kanban),
      progress,
      logger: silent,
      claudeCommand: 'claude',
      signal: options.signal,
    },
    progress,
    logger: silent,
  });
  return { outcome, calls: runner.calls, notes, kanban: () => YAML.parse(fs.readFileSync(path.join(dir, kanbanFile), 'utf8')) as Record<string, unknown> };
}

const readLog = () => fs.readFileSync(path.join(dir, 'SUPERVISOR_LOG.md'), 'utf8');

describe('runWorkflow', () => {
  it("routes by the role table, gives each agent 004's inputs, and persists the Manager's answer", async () => {
    project(standard());
    const { outcome, calls, kanban } = await run((call) => (isReconcile(call) ? managerNext(call) : ok()));
    expect(outcome.exitCode).toBe(0);
    expect(calls.map((c) => `${roleOf(c)}${isReconcile(c) ? '*' : ''}`)).toEqual(['Implementor', 'Manager*', 'Architect', 'Manager*']);
    expect(calls[0]!.stdin).toContain('{\n  "task_file": "tasks/a.md",\n  "kanban_file": "kanban.yaml"\n}');
    expect(calls[1]!.stdin).toContain(
      '{\n  "kanban_file": "kanban.yaml",\n  "done_task": "tasks/a.md",\n  "tasks": [\n    "tasks/a.md",\n    "tasks/b.md"\n  ]\n}',
    );
    for (const call of calls) {
      expect(call.args.slice(0, 5)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--json-schema']);
      expect(call.args.slice(-2)).toEqual(['--model', 'sonnet']);
    }
    expect(JSON.parse(calls[1]!.args[5]!).required).toEqual(['status', 'message', 'tasks', 'next_task']);
    expect(kanban()).toEqual({ phase: 'complete', current: null, tasks: TASKS });
  });

  it('retries with the identical invocation, logging each retry, until the answer has the format', async () => {
    project(standard());
    const { outcome, calls } = await run(
      (call, i) =>
        isReconcile(call) ? managerNext(call) : i === 0 ? { text: 'done!' } : i === 1 ? { exitCode: 1, stderr: 'boom\nAPI Error: 500 overloaded\n' } : ok(),
      { maxRetries: 2 },
    );
    expect(outcome.exitCode).toBe(0);
    expect(calls[1]).toEqual(calls[0]);
    expect(calls[2]).toEqual(calls[0]);
    const log = readLog();
    expect(log.match(/\*\*Attempt:\*\* \d\/2/g)).toEqual(['**Attempt:** 1/2', '**Attempt:** 2/2']);
    expect(log).toContain('**Issue:** Invalid output format: the answer holds no JSON object');
    expect(log).toContain('**Issue:** No valid output: claude exited with code 1 (API Error: 500 overloaded)');
    expect(log).toContain('**Received:**\n```text\nboom\nAPI Error: 500 overloaded\n\n```');
  });

  it('fails with exit 4 when the retries are used up, and leaves the kanban file as it was', async () => {
    project(standard());
    const before = fs.readFileSync(path.join(dir, 'kanban.yaml'), 'utf8');
    const { outcome, calls } = await run(() => ({ output: { status: 'finished' } }), { maxRetries: 1 });
    expect(outcome).toEqual({
      exitCode: 4,
      message: expect.stringMatching(
        /^The Implementor agent \(tasks\/a\.md\) did not answer in the required format after 1 retry: Invalid output format: "status" is "finished".*Every attempt is in SUPERVISOR_LOG\.md\.$/,
      ),
    });
    expect(calls).toHaveLength(2);
    expect(fs.readFileSync(path.join(dir, 'kanban.yaml'), 'utf8')).toBe(before);
    expect(readLog()).toMatch(/Retry Event[\s\S]*Failure Event[\s\S]*\*\*Attempts:\*\* 2 \(1 retries\)/);
  });

  it.each(['blocked', 'escalate', 'error'])('stops with exit 5 and the message when an agent answers %s', async (status) => {
    project(standard());
    const { outcome, calls } = await run(() => ({ output: { status, message: 'needs the DB password' } }));
    expect(outcome).toEqual({ exitCode: 5, message: `The Implementor agent stopped the workflow at tasks/a.md with status ${status}: needs the DB password` });
    expect(calls).toHaveLength(1);
  });

  it('retries a Manager whose next_task names no file, then writes its answer over its own edits', async () => {
    project(standard());
    const { outcome, calls, kanban } = await run((call, i) => {
      if (i === 0) return ok();
      if (i === 1) return { output: { status: 'ok', message: 'm', tasks: TASKS, next_task: 'tasks/typo.md' } };
      if (i === 2) {
        return {
          // The Manager edits the kanban: its new phase and a note of its own stay; its returned list and next task win.
          effect: () =>
            fs.writeFileSync(
              path.join(dir, 'kanban.yaml'),
              YAML.stringify({ phase: 'validate', current: 'x.md', tasks: ['x.md'], note: 'kept', done_task: TASKS[0] }),
            ),
          output: { status: 'ok', message: 'm', tasks: [...TASKS, 'tasks/c.md'], next_task: TASKS[1] },
        };
      }
      return { output: { status: 'blocked', message: `${roleOf(call)} stops here` } };
    });
    expect(calls[2]).toEqual(calls[1]);
    expect(readLog()).toContain('**Issue:** Invalid output format: "next_task" names "tasks/typo.md", which is not a file (tasks/typo.md)');
    expect(outcome).toEqual({ exitCode: 5, message: 'The Architect agent stopped the workflow at tasks/b.md with status blocked: Architect stops here' });
    expect(kanban()).toEqual({ phase: 'validate', current: TASKS[1], tasks: [...TASKS, 'tasks/c.md'], note: 'kept' });
  });

  it('writes over the last valid kanban when the Manager leaves it broken', async () => {
    project(standard({ phase: 'execute', current: TASKS[1], tasks: TASKS }));
    const { outcome, kanban, notes } = await run((call) =>
      isReconcile(call) ? { effect: () => fs.writeFileSync(path.join(dir, 'kanban.yaml'), 'phase: [broken'), ...managerNext(call) } : ok(),
    );
    expect(outcome.exitCode).toBe(0);
    expect(kanban()).toEqual({ phase: 'complete', current: null, tasks: TASKS });
    expect(notes.some((n) => n.startsWith('warning: The kanban file kanban.yaml is not valid YAML'))).toBe(true);
  });

  it('marks the done task before the Manager runs, and a rerun goes straight to the Manager', async () => {
    project(standard());
    const stop = await run((call) => (isReconcile(call) ? { output: { status: 'blocked', message: 'wait' } } : ok()));
    expect(stop.outcome.exitCode).toBe(5);
    expect(stop.kanban()).toEqual({ phase: 'execute', current: TASKS[0], tasks: TASKS, done_task: TASKS[0] });
    const rerun = await run((call) => (isReconcile(call) ? managerNext(call) : ok()));
    expect(rerun.outcome.exitCode).toBe(0);
    expect(rerun.calls.map((c) => `${roleOf(c)}${isReconcile(c) ? '*' : ''}`)).toEqual(['Manager*', 'Architect', 'Manager*']);
    expect(rerun.notes).toContain('tasks/a.md was done in an earlier run; the Manager reconciles it now');
  });

  it('stops at once on Ctrl-C (exit 130) and leaves the kanban file as it was', async () => {
    project(standard());
    const before = fs.readFileSync(path.join(dir, 'kanban.yaml'), 'utf8');
    const controller = new AbortController();
    // Ctrl-C comes while the first agent runs (it never answers), not at a guessed moment.
    const hangThenInterrupt = () => {
      queueMicrotask(() => controller.abort());
      return { hang: true } as const;
    };
    const { outcome, calls } = await run(hangThenInterrupt, { signal: controller.signal });
    expect(outcome.exitCode).toBe(130);
    expect(calls).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, 'kanban.yaml'), 'utf8')).toBe(before);
  });

  it('throws the clear claude-not-found error when claude cannot be started', async () => {
    project(standard());
    const error = await run(() => ({ spawnError: Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' }) })).catch((e: unknown) => e);
    expect(isCccError(error) && error.code).toBe('CLAUDE_NOT_FOUND');
  });

  it("uses the project's role prompts from roles_dir over the built-in ones", async () => {
    project({ ...standard({ phase: 'design', current: TASKS[0], tasks: TASKS }), 'roles/architect.md': 'MY ARCHITECT RULES' });
    const { calls } = await run((call) => (isReconcile(call) ? { output: { status: 'ok', message: 'm', tasks: TASKS, next_task: null } } : ok()));
    expect(calls[0]!.stdin.startsWith('MY ARCHITECT RULES\n\n---\n\n## Your inputs')).toBe(true);
    expect(roleOf(calls[1]!)).toBe('Manager');
  });

  it("resolves task paths against the kanban file's directory and gives agents paths from their working directory", async () => {
    project(Object.fromEntries(Object.entries(standard()).map(([name, text]) => [`board/${name}`, text])));
    const { outcome, calls, kanban } = await run((call) => (isReconcile(call) ? managerNext(call) : ok()), { kanbanFile: 'board/kanban.yaml' });
    expect(outcome.exitCode).toBe(0);
    expect(calls[0]!.stdin).toContain('"task_file": "board/tasks/a.md",\n  "kanban_file": "board/kanban.yaml"');
    expect(calls[1]!.stdin).toContain('"done_task": "tasks/a.md"');
    expect(roleOf(calls[2]!)).toBe('Architect'); // board/tasks/b.md's header
    expect(kanban()).toEqual({ phase: 'complete', current: null, tasks: TASKS });
    expect(fs.existsSync(path.join(dir, 'kanban.yaml'))).toBe(false);
  });
});
