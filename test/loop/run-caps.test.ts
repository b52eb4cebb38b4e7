/**
 * The caps bind the run, whatever session ids claude gives it. A claude that continues the session
 * in a copy with a new id at every turn (as claude did before `--fork-session`: each `--resume`
 * gave a new id) used to start the iteration count, the no-progress history and the task's spend
 * again at every stop: `review 1/20` for ever. Here the real claude is made to do the same (every
 * `--resume` gets `--fork-session` added), against the scripted model server, with `ccc init`'s
 * shape of pipeline (a rule checker, then the reviewer); and the standalone Stop hook is given
 * stops of one claude process whose ids change.
 */
import { runProcess } from '../support/run-process.js';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, claudeBin, type ClaudeWorld } from '../support/claude-env.js';
import { readLog, runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';

/** A claude that renames its session at every resumed turn: the real one, with `--fork-session` added to each `--resume`. */
function renamingClaude(world: ClaudeWorld): string {
  const file = path.join(world.root, 'claude-new-id-each-turn');
  fs.writeFileSync(
    file,
    `#!/bin/sh
case " $* " in
  *" --fork-session "*) ;;
  *" --resume "*) set -- "$@" --fork-session ;;
esac
exec ${JSON.stringify(claudeBin)} "$@"
`,
    { mode: 0o755 },
  );
  return file;
}

describe('the caps count per run, not per session id', () => {
  async function setup(rig: Rig, supervisor: Record<string, unknown>, agent: (r: RecordedRequest) => Reply = (r) => ({ text: `Done, I think (${r.index}).` })) {
    const { server, world } = await rig.start((r) => (r.kind === 'review' ? { verdict: { completed: false, feedback: `still wrong #${r.index}` } } : agent(r)));
    world.env.CCC_CLAUDE = renamingClaude(world);
    fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor }));
    return { server, world };
  }

  it('the iteration limit: review 1/3, 2/3, 3/3, then the limit, though every turn is in a new session; the new ids are named once', async ({ rig }) => {
    // Feedback that differs every time (the no-progress guard stays out of it), a rule checker first as `ccc init` writes it.
    const { server, world } = await setup(rig, {
      max_iterations: 3,
      no_progress_limit: 20,
      checkers: [{ use: 'rule', commands: ['echo "tests failed at $(date +%N)"; exit 1'] }, 'claude'],
    });
    const run = await runCcc(world, ['--supervisor', '--json', '-p', 'fix the tests']);
    expect(run.stderr.match(/ccc: review \d+\/3/g) ?? []).toEqual([]); // --json: the events are on stdout
    const events = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { kind?: string; n?: number; reason?: string; message?: string });
    expect(events.filter((e) => e.kind === 'iteration').map((e) => e.n)).toEqual([1, 2, 3]);
    expect(events.find((e) => e.kind === 'stopped')?.reason).toBe('limit');
    expect(run.code).toBe(3);
    // The stand-in did rename the session at every turn: each reviewed stop has a session state of its own.
    expect(server.byKind('agent')).toHaveLength(4); // the task, two feedbacks, the wind-down turn
    expect(fs.readdirSync(path.join(world.claudeDir, 'ccc')).filter((f) => /^supervisor-[\w-]+\.json$/.test(f))).toHaveLength(3);
    const warnings = events.filter((e) => e.kind === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(
      /^claude gives the session a new id at each turn \([\w-]+ → [\w-]+\); the iteration count, the cost caps and the no-progress guard count per run/,
    );
    expect(readLog(world).match(/\[WARN\] .*claude continued the task in a new session/g)).toHaveLength(2);
  });

  it('progress lines: the same run without --json says `review n/3` three times and the warning once', async ({ rig }) => {
    const { world } = await setup(rig, {
      max_iterations: 3,
      no_progress_limit: 20,
      checkers: [{ use: 'rule', commands: ['echo "tests failed at $(date +%N)"; exit 1'] }, 'claude'],
    });
    const run = await runCcc(world, ['--supervisor', '-p', 'fix the tests']);
    expect(run.stderr.match(/ccc: review \d+\/3/g)).toEqual(['ccc: review 1/3', 'ccc: review 2/3', 'ccc: review 3/3']);
    expect(run.stderr.match(/ccc: warning: claude gives the session a new id at each turn/g)).toHaveLength(1);
    expect(run.code).toBe(3);
  });

  it('the no-progress guard: the same feedback three times ends the run at review 3, its history kept across the ids', async ({ rig }) => {
    const { world } = await setup(rig, {
      max_iterations: 20,
      no_progress_limit: 3,
      checkers: [{ use: 'rule', commands: ['echo "3 tests failed"; exit 1'] }, 'claude'],
    });
    const run = await runCcc(world, ['--supervisor', '-p', 'fix the tests']);
    expect(run.stderr).toContain('no progress: the checker gave the same feedback 3 times in a row and the work tree did not change');
    expect(run.stderr.match(/ccc: review \d+\/20/g)).toEqual(['ccc: review 1/20', 'ccc: review 2/20', 'ccc: review 3/20']);
    expect(run.code).toBe(3);
  });

  it('the reviewer itself (no rule checker): three reviews at most, each a fork of the renamed session', async ({ rig }) => {
    const { server, world } = await setup(rig, { max_iterations: 3, checkers: ['claude'] });
    const run = await runCcc(world, ['--supervisor', '-p', 'fix the tests']);
    expect(server.byKind('review')).toHaveLength(3);
    expect(run.stderr.match(/ccc: review \d+\/3/g)).toEqual(['ccc: review 1/3', 'ccc: review 2/3', 'ccc: review 3/3']);
    expect(run.code).toBe(3);
  });
});

describe('the standalone Stop hook: one claude process whose session id changes mid-task', () => {
  it('counts the task on across the ids, up to the limit, and says so in the log', async ({ rig }) => {
    const world = rig.world();
    fs.writeFileSync(
      path.join(world.cwd, '.cccrc.json'),
      JSON.stringify({
        supervisor: {
          max_iterations: 3,
          no_progress_limit: 20,
          wind_down: false,
          checkers: [{ use: 'rule', commands: ['echo "failed at $(date +%N)"; exit 1'] }],
        },
      }),
    );
    fs.writeFileSync(path.join(world.cwd, 'transcript.jsonl'), '');
    // The claude process: one node process that runs the hook at each stop, as claude runs its hooks (through sh).
    const stops = Array.from({ length: 5 }, (_, i) => ({
      session_id: `0000000${i}-0000-4000-8000-000000000000`,
      transcript_path: path.join(world.cwd, 'transcript.jsonl'),
      cwd: world.cwd,
      hook_event_name: 'Stop',
      stop_hook_active: i > 0,
    }));
    const script = `
      const { spawnSync } = require('node:child_process');
      const answers = [];
      for (const stop of ${JSON.stringify(stops)}) {
        const r = spawnSync('/bin/sh', ['-c', ${JSON.stringify(`${JSON.stringify(process.execPath)} ${JSON.stringify(cccBin)} supervisor-hook`)}], { input: JSON.stringify(stop), encoding: 'utf8' });
        answers.push({ stdout: r.stdout.trim(), stderr: r.stderr.trim() });
      }
      process.stdout.write(JSON.stringify(answers));
    `;
    // Not spawnSync: five reviews on a loaded machine can hold this worker's event loop past vitest's 60 s RPC timeout.
    const run = await runProcess(process.execPath, ['-e', script], { cwd: world.cwd, env: world.env, timeoutMs: 120_000 });
    const answers = JSON.parse(run.stdout) as { stdout: string; stderr: string }[];
    const blocked = answers.map((a) => (a.stdout ? (JSON.parse(a.stdout) as { decision?: string }).decision === 'block' : false));
    // Three reviews, each a block; the fourth stop is past the limit and allowed, whatever its id.
    expect(blocked).toEqual([true, true, true, false, false]);
    expect(answers[3]!.stderr).toContain('the iteration limit (3) was reached');
    expect(readLog(world).match(/\[WARN\] .*claude continued the task in a new session/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
