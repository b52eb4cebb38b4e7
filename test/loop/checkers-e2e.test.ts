/**
 * The acceptance checks of the checker-pipeline issue: headless supervised runs (`ccc --supervisor
 * -p`) with the real claude against the scripted model server, driven by the rule, hook and plugin
 * checkers, and ended by the spending guards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { repoRoot } from '../support/claude-env.js';
import { processesIn, readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { isToolResultTurn, type RecordedRequest, type Reply } from '../support/model-server.js';
import { needs } from '../support/tools.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const BASH = ['--', '--allowedTools', 'Bash'];

/** Claims to be done at once; after the first feedback creates DONE with a real Bash tool call. */
const lazyThenDone = (r: RecordedRequest): Reply => {
  if (r.index === 0) return { text: 'All done, trust me.' };
  if (isToolResultTurn(r)) return { text: 'Created DONE.' };
  return { toolUse: { name: 'Bash', input: { command: 'touch DONE', description: 'create the DONE file' } } };
};

describe('checker pipeline, end to end (headless)', () => {
  /** The scripted server and a world with `config` as its .cccrc.json; a test that wants the reviewer writes SUPERVISOR.md itself. */
  async function setup(
    rig: Rig,
    config: Record<string, unknown>,
    agent: (r: RecordedRequest) => Reply,
    review: (r: RecordedRequest) => Reply = () => ({ verdict: { completed: true, feedback: 'ok' } }),
  ) {
    const started = await rig.start((r) => (r.kind === 'review' ? review(r) : agent(r)), { supervisor: false });
    fs.writeFileSync(path.join(started.world.cwd, '.cccrc.json'), JSON.stringify(config));
    return started;
  }

  it('a rule checker alone drives the run: its feedback names the failing check, the agent creates DONE with Bash, exit 0, no model review', async ({
    rig,
  }) => {
    const { server, world } = await setup(rig, { supervisor: { checkers: [{ use: 'rule', commands: ['test -f DONE'] }] } }, lazyThenDone);
    const run = await runCcc(world, ['--supervisor', '-p', 'create a file named DONE', ...BASH]);
    expect(run.stderr).toContain('Supervisor mode enabled');
    expect(run.code).toBe(0);
    expect(fs.existsSync(path.join(world.cwd, 'DONE'))).toBe(true);
    expect(server.byKind('review')).toHaveLength(0);
    const agent = server.byKind('agent');
    expect(agent[1]!.lastUserText).toContain('The command `test -f DONE` failed with exit code 1.');
    // `test -f DONE` runs no test runner: the rule's pass is its word, not test evidence.
    expect(run.stderr).toContain('complete (rule, unverified: test -f DONE: it runs `test -f DONE`: no test runner ccc knows)');
    // The log keeps each verdict with its feedback, not only completed=true|false.
    expect(readLog(world)).toMatch(/checker=rule completed=false .*feedback="The command `test -f DONE` failed with exit code 1\..*checker verdict/);
  });

  it("a failing rule's last lines of output are on the progress line (inert) and in the agent's feedback", async ({ rig }) => {
    const failing = `test -f DONE || { printf 'compiling\\n\\033]0;owned\\007ERR-LINE-77: expected DONE\\n3 failed\\n'; exit 1; }`;
    const { server, world } = await setup(rig, { supervisor: { checkers: [{ use: 'rule', commands: [failing] }] } }, lazyThenDone);
    const run = await runCcc(world, ['--supervisor', '-p', 'create a file named DONE', ...BASH]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /ccc: ✗ not complete \(rule, failed: .* \(exit 1\)\): The command .* failed with exit code 1\.\n(ccc: {3}│ .*\n)*ccc: {3}│ .*ERR-LINE-77: expected DONE\nccc: {3}│ 3 failed\n/,
    );
    expect(run.stderr).not.toContain('\u001b]0;owned');
    expect(server.byKind('agent')[1]!.lastUserText).toMatch(/ERR-LINE-77: expected DONE\n3 failed/);
  });

  it("a failing pytest's failure lines, not its header, are on the CI log; the run's last line has the wind-down turn's cost", async ({ rig }) => {
    const { server, world } = await setup(rig, { supervisor: { max_iterations: 1, checkers: [{ use: 'rule', commands: ['python3 -m pytest'] }] } }, () => ({
      text: 'All done.',
    }));
    fs.mkdirSync(path.join(world.cwd, 'tests'));
    fs.copyFileSync(path.join(fixtures, 'test_parse.py'), path.join(world.cwd, 'tests', 'test_parse.py'));
    const run = await runCcc(world, ['--supervisor', '-p', 'make the parser keep empty fields']);
    expect(run.code, run.stderr).toBe(3);
    // What the progress line shows of the feedback: its first line and the lines under it, up to "… more lines in the log".
    const shown = run.stderr.slice(run.stderr.search(/ccc: ✗ not complete \(rule, failed: python3 -m pytest \(exit 1/)).split('\n');
    const body = shown.slice(
      1,
      shown.findIndex((line, i) => i > 0 && !line.startsWith('ccc:   │')),
    );
    expect(shown[0]).toMatch(/: The command `python3 -m pytest` failed with exit code 1\.$/);
    expect(body).toEqual(
      expect.arrayContaining([
        "ccc:   │ FAILED tests/test_parse.py::test_parse_empty - AssertionError: assert [] == ['']",
        expect.stringMatching(/^ccc: {3}│ FAILED tests\/test_parse.py::test_garbage_rejected - AssertionError: empty fie/),
        'ccc:   │ E       AssertionError: empty fields must be kept',
        'ccc:   │ tests/test_parse.py:12: AssertionError',
      ]),
    );
    // They come before the output's tail, which begins with pytest's header.
    expect(body.findIndex((line) => line.includes('FAILED tests/'))).toBeLessThan(body.findIndex((line) => line.includes('test session starts')));
    // The log keeps the whole feedback: what failed, then the output's tail.
    expect(readLog(world)).toMatch(/What failed:.*FAILED tests\/test_parse.py::test_parse_empty.*Last lines of its output:/);
    // The wind-down turn (the agent's last, after the last verdict) is in the run's last line.
    expect(server.byKind('agent')).toHaveLength(2);
    const [, spent, windDown] = /^ccc: 1 review; spent \$(\d+\.\d+) in all, \$(\d+\.\d+) of it on the wind-down turn$/m.exec(run.stderr) ?? [];
    expect(Number(windDown)).toBeGreaterThan(0);
    expect(Number(windDown)).toBeLessThan(Number(spent));
  });

  it('a hook checker written in Python drives the loop', async ({ rig, skip }) => {
    needs({ skip }, 'python3');
    const { server, world } = await setup(
      rig,
      { supervisor: { checkers: [{ use: 'hook', command: `python3 ${path.join(fixtures, 'done-hook.py')}` }] } },
      lazyThenDone,
    );
    const run = await runCcc(world, ['--supervisor', '-p', 'create a file named DONE', ...BASH]);
    expect(run.code).toBe(0);
    expect(server.byKind('agent')[1]!.lastUserText).toContain(`PY-HOOK-42: there is no DONE file in ${world.cwd}`);
    expect(server.byKind('review')).toHaveLength(0);
    expect(run.stderr).toContain('⚠ complete (hook, unverified)'); // the hook reports no command it ran
  });

  it('a TypeScript plugin from plugins/, loaded by path with --checker and no build step, drives the loop', async ({ rig }) => {
    const { server, world } = await setup(rig, {}, lazyThenDone);
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'fixture', scripts: { test: 'test -f DONE' } }));
    const run = await runCcc(world, ['--supervisor', '--checker', path.join(repoRoot, 'plugins', 'test-gate.ts'), '-p', 'create a file named DONE', ...BASH]);
    expect(run.code).toBe(0);
    expect(server.byKind('agent')[1]!.lastUserText).toContain('The tests fail: `npm test` exited with code 1.');
    // Its own run is the evidence, judged as the reviewer's: `npm test` runs `test -f DONE`, no test runner.
    expect(run.stderr).toContain('complete (test-gate, unverified: npm test: it runs `test -f DONE`: no test runner ccc knows)');
  });

  it('pipeline rule then claude: the reviewer never runs while the rule fails', async ({ rig }) => {
    const { server, world } = await setup(rig, { supervisor: { checkers: [{ use: 'rule', commands: ['test -f DONE'] }, 'claude'] } }, lazyThenDone);
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['--supervisor', '-p', 'create a file named DONE', ...BASH]);
    expect(run.code).toBe(0);
    const reviews = server.byKind('review');
    expect(reviews).toHaveLength(1);
    // The one review came after the Bash call had created DONE.
    const order = server.requests.filter((r) => r.kind !== 'background');
    const toolResult = order.findIndex((r) => r.kind === 'agent' && isToolResultTurn(r));
    expect(toolResult).toBeGreaterThan(-1);
    expect(order.indexOf(reviews[0]!)).toBeGreaterThan(toolResult);
    expect(run.stderr).toMatch(
      / complete \(claude, unverified: test -f DONE: it runs `test -f DONE`: no test runner ccc knows, \$\d+\.\d+, \d+% cached, review: forked\)/,
    );
  });

  it('the no-progress breaker ends the loop with exit 3 and says so', async ({ rig }) => {
    const { server, world } = await setup(
      rig,
      { supervisor: { checkers: [{ use: 'rule', commands: ['echo "3 tests failed in 0.$$s"; exit 1'] }], no_progress_limit: 3 } },
      (r) => ({
        text: `I think it works now (${r.index}).`,
      }),
    );
    const run = await runCcc(world, ['--supervisor', '-p', 'fix the tests']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no progress: the checker gave the same feedback 3 times in a row and the work tree did not change');
    expect(server.byKind('agent')).toHaveLength(3); // the task and two feedbacks; the third feedback is not sent
    expect(fs.readdirSync(path.join(world.claudeDir, 'ccc')).some((f) => /^progress-[\w-]+\.json$/.test(f))).toBe(true);
  });

  it('the cost cap ends the loop with exit 3 and says so', async ({ rig }) => {
    const { server, world } = await setup(
      rig,
      { supervisor: { max_cost_usd: 0.000001 } },
      (r) => ({ text: `answer ${r.index}` }),
      (r) => ({ verdict: { completed: false, feedback: `not yet #${r.index}` } }),
    );
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /stopped: the cost cap of \$0\.000001 was reached \(\$\d+\.\d{4} spent by the agent and the reviewer\); the agent was given one last turn to write down where the work stands/,
    );
    expect(server.byKind('review')).toHaveLength(1);
    // The one agent turn after the cap is the wind-down, not the reviewer's feedback.
    const agent = server.byKind('agent');
    expect(agent).toHaveLength(2);
    expect(agent[1]!.lastUserText).toMatch(/^The supervised run has reached a limit \(the cost cap of \$0\.000001 was reached/);
    expect(agent[1]!.lastUserText).not.toContain('not yet #0');
  });

  it('a plugin that throws, hangs past its timeout, or answers the wrong shape: named in a clear error, exit 4, nothing left running', async ({ rig }) => {
    const plugins: Record<string, string> = {
      'throws.ts': `export default { name: 'thrower', check() { throw new Error('cannot reach the CI server'); } };`,
      'hangs.ts': `export default { name: 'sleeper', check: () => new Promise(() => {}) };`,
      'shape.ts': `export default { name: 'shapeless', check: () => ({ ok: true }) };`,
    };
    const expected: Record<string, RegExp> = {
      'throws.ts': /checker "thrower" threw: cannot reach the CI server/,
      'hangs.ts': /checker "sleeper" did not answer within 2s/,
      'shape.ts': /checker "shapeless" returned \{"ok":true\}; expected \{ completed: boolean, feedback: string \}/,
    };
    const { world } = await setup(rig, {}, (r) => ({ text: `answer ${r.index}` }));
    for (const [file, source] of Object.entries(plugins)) {
      fs.writeFileSync(path.join(world.cwd, file), source);
      fs.writeFileSync(path.join(world.cwd, '.cccrc.json'), JSON.stringify({ supervisor: { checkers: [{ use: `./${file}`, timeout_seconds: 2 }] } }));
      const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
      expect(run.code, file).toBe(4);
      expect(run.stderr, file).toMatch(expected[file]!);
      expect(readLog(world), file).toMatch(/\[ERROR\] .*checker failed; stop allowed/);
    }
    // ccc has exited: what it killed may take a moment to go, what it left behind stays.
    await expect.poll(() => processesIn(world), { timeout: 5_000 }).toEqual([]);
  });
});
