/**
 * Crash safety of `ccc kanban`: killed with SIGKILL at the worst moments, then rerun, the workflow
 * continues from the kanban file alone and no task is done twice.
 */
import { describe, expect } from 'vitest';
import YAML from 'yaml';
import { processesIn, runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { agentOf, answer, firstRequests, read, startCcc, task, writeProject } from './kanban-world.js';

const TASKS = ['tasks/001-parse.md', 'tasks/002-format.md'];

describe('ccc kanban after a crash', () => {
  it('killed with SIGKILL mid-reconciliation and mid-task, then rerun: continues, and each task is completed once at the server', async ({ rig }) => {
    /** Answers that hang: `ccc` is killed while the model is "thinking" about them. */
    const hangs = new Set(['Manager tasks/001-parse.md', 'Implementor tasks/002-format.md']);
    const completed: string[] = [];
    const server = await rig.server((r) => {
      const info = agentOf(r);
      const key = `${info.role} ${info.task}`;
      if (hangs.delete(key)) return { hang: true };
      completed.push(key);
      if (info.role === 'Manager') {
        return answer({ status: 'ok', message: 'reconciled', tasks: TASKS, next_task: TASKS[TASKS.indexOf(info.task!) + 1] ?? null });
      }
      return answer({ status: 'ok', message: `did ${info.task}` });
    });
    const world = rig.world({ server });
    writeProject(world, {
      'kanban.yaml': YAML.stringify({ phase: 'execute', current: TASKS[0], tasks: TASKS }),
      [TASKS[0]!]: task('parse'),
      [TASKS[1]!]: task('format'),
    });
    /** Waits until the model server has recorded `n` first requests (of agents, not retries). */
    const seen = (n: number) => expect.poll(() => firstRequests(server.requests).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(n);

    // 1. Killed while the Manager reconciles the finished first task.
    const first = startCcc(world, ['kanban', 'kanban.yaml']);
    await seen(2); // the Manager request
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    // Nothing outlives ccc: its lifeline ends the agent's process group.
    await expect.poll(() => processesIn(world), { timeout: 60_000 }).toEqual([]); // the agent ends with ccc
    expect(YAML.parse(read(world, 'kanban.yaml'))).toEqual({ phase: 'execute', current: TASKS[0], tasks: TASKS, done_task: TASKS[0] });

    // 2. Rerun: straight to the Manager (the task is not done again), then killed in the second task.
    const second = startCcc(world, ['kanban', 'kanban.yaml']);
    await seen(4); // the second task
    second.child.kill('SIGKILL');
    const secondRun = await second.done;
    expect(secondRun.stderr).toContain('tasks/001-parse.md was done in an earlier run; the Manager reconciles it now');
    expect(firstRequests(server.requests).map((r) => `${agentOf(r).role} ${agentOf(r).task}`)).toEqual([
      'Implementor tasks/001-parse.md',
      'Manager tasks/001-parse.md',
      'Manager tasks/001-parse.md',
      'Implementor tasks/002-format.md',
    ]);
    expect(YAML.parse(read(world, 'kanban.yaml'))).toEqual({ phase: 'execute', current: TASKS[1], tasks: TASKS });

    // 3. Rerun to the end.
    const third = await runCcc(world, ['kanban', 'kanban.yaml']);
    expect(third.code).toBe(0);
    expect(YAML.parse(read(world, 'kanban.yaml'))).toEqual({ phase: 'complete', current: null, tasks: TASKS });
    expect(completed).toEqual([
      'Implementor tasks/001-parse.md',
      'Manager tasks/001-parse.md',
      'Implementor tasks/002-format.md',
      'Manager tasks/002-format.md',
    ]);
  });

  it('Ctrl-C stops the running agent and exits 130 with the kanban file as it was; a rerun finishes', async ({ rig }) => {
    let hang = true;
    const server = await rig.server((r) => {
      const info = agentOf(r);
      if (info.role === 'Manager') return answer({ status: 'ok', message: 'done', tasks: [TASKS[0]], next_task: null });
      if (hang) return { hang: true };
      return answer({ status: 'ok', message: 'did it' });
    });
    const world = rig.world({ server });
    writeProject(world, { 'kanban.json': JSON.stringify({ phase: 'execute', current: TASKS[0], tasks: [TASKS[0]] }), [TASKS[0]!]: task('parse') });
    const before = read(world, 'kanban.json');
    const running = startCcc(world, ['kanban', 'kanban.json']);
    await expect.poll(() => firstRequests(server.requests).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1); // the agent request
    running.child.kill('SIGINT');
    const result = await running.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Interrupted. The kanban file holds the state before the running agent; run ccc kanban again to continue.');
    expect(read(world, 'kanban.json')).toBe(before);
    expect(processesIn(world)).toEqual([]); // the agent's whole process tree is gone
    hang = false;
    const rerun = await runCcc(world, ['kanban', 'kanban.json']);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(read(world, 'kanban.json'))).toEqual({ phase: 'complete', current: null, tasks: [TASKS[0]] });
  });
});
