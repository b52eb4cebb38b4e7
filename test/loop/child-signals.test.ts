/**
 * The real claude killed by a signal in the middle of its request, as the model server receives
 * it: the reviewer, the headless agent and a kanban agent. Each end is said as the signal
 * ("was killed by SIGKILL"), on stderr and in the log, never as "exited with code null".
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import { agentOf, task, writeProject } from '../kanban/kanban-world.js';

/** SIGKILLs this world's claude processes whose arguments `match`. */
function killClaude(world: ClaudeWorld, match: (args: string[]) => boolean): number {
  let killed = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0] !== claudeBin || !fs.readlinkSync(`/proc/${entry}/cwd`).startsWith(world.root) || !match(args)) continue;
      process.kill(Number(entry), 'SIGKILL');
      killed += 1;
    } catch {
      // gone, or not ours
    }
  }
  return killed;
}

describe('the real claude killed by a signal', () => {
  /** A world with SUPERVISOR.md whose scripted server answers by `scenario`, which is given the world its claude runs in. */
  async function setUp(rig: Rig, scenario: (r: RecordedRequest, world: ClaudeWorld) => Reply): Promise<ClaudeWorld> {
    const server = await rig.server((r) => scenario(r, world));
    const world = rig.world({ server, supervisor: true });
    return world;
  }

  it('the reviewer: "the claude reviewer was killed by SIGKILL", exit 4', async ({ rig }) => {
    let killed = 0;
    const world = await setUp(rig, (r, world) => {
      if (r.kind !== 'review') return { text: 'All done.' };
      killed += killClaude(world, (args) => args.includes('--fork-session'));
      return { text: 'never read' };
    });
    const r = await runCcc(world, ['--supervisor', '-p', 'do the task']);
    expect(killed).toBeGreaterThan(0);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('the claude reviewer was killed by SIGKILL');
    expect(readLog(world)).toContain('the claude reviewer was killed by SIGKILL');
    expect(r.stderr + readLog(world)).not.toContain('code null');
  });

  it('the headless agent: "the agent was killed by SIGKILL"', async ({ rig }) => {
    let killed = 0;
    const world = await setUp(rig, (_r, world) => {
      killed += killClaude(world, (args) => args.includes('-p') && !args.includes('--fork-session'));
      return { text: 'never read' };
    });
    const r = await runCcc(world, ['--supervisor', '-p', 'do the task']);
    expect(killed).toBeGreaterThan(0);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the agent was killed by SIGKILL');
    expect(r.stderr + readLog(world)).not.toContain('code null');
  });

  it('a kanban agent: "No valid output: claude was killed by SIGKILL"', async ({ rig }) => {
    let killed = 0;
    const world = await setUp(rig, (r, world) => {
      if (agentOf(r).role !== 'Implementor') return { text: 'unexpected' };
      killed += killClaude(world, () => true);
      return { text: 'never read' };
    });
    writeProject(world, { 'kanban.yaml': 'phase: execute\ncurrent: tasks/001.md\ntasks:\n  - tasks/001.md\n', 'tasks/001.md': task('one') });
    const r = await runCcc(world, ['kanban', 'kanban.yaml', '--max-retries', '0']);
    expect(killed).toBeGreaterThan(0);
    expect(r.code).not.toBe(0);
    expect(r.stderr + fs.readFileSync(path.join(world.claudeDir, 'ccc', 'kanban.log'), 'utf8')).toContain('No valid output: claude was killed by SIGKILL');
    expect(r.stderr).not.toContain('code null');
  });
});
