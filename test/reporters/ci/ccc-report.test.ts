/**
 * `ccc report` over the `--json` event logs of three real runs (the real claude against the
 * scripted model server): one completed, one that hit the iteration limit, one whose checker
 * failed. Every model answer reports the same usage, so the cost of the whole lot is that of one
 * answer times the answers the server gave (a failed request costs nothing).
 */
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect } from 'vitest';
import type { ClaudeWorld } from '../../support/claude-env.js';
import { runCcc } from '../../support/ccc-run.js';
import { it as rigIt } from '../../support/fixtures.js';
import type { ModelServer, Reply } from '../../support/model-server.js';

const USAGE = { input_tokens: 1000, output_tokens: 100 };
type Mode = 'completed' | 'limit' | 'checker-failed';

interface ReportRuns {
  server: ModelServer;
  world: ClaudeWorld;
  /** The three runs' event logs, in the order completed, limit, checker-failed. */
  logs: string[];
  /** The cost of one model answer as claude prices the scripted usage. */
  oneAnswer: number;
  /** How the server answers the reviews of the runs made from now on. */
  setMode: (mode: Mode) => void;
}

/** The three runs, made once for the file by whichever test asks first; the file's rig tears them down. */
const it = rigIt.extend<{ runs: ReportRuns }>({
  runs: [
    async ({ fileRig }, use) => {
      let mode: Mode = 'completed';
      const { server, world } = await fileRig.start((r): Reply => {
        if (r.kind === 'agent') return { text: `working on it (${r.index})`, usage: USAGE };
        if (mode === 'checker-failed') return { error: { status: 400, message: 'reviewer exploded' } };
        const done = mode === 'completed' && r.index % 2 === 1;
        return { verdict: { completed: done, feedback: done ? 'done' : `not yet #${r.index}` }, usage: USAGE };
      });
      const logs: string[] = [];
      const expectCodes = { completed: 0, limit: 3, 'checker-failed': 4 };
      for (const m of ['completed', 'limit', 'checker-failed'] as const) {
        mode = m;
        const run = await runCcc(world, ['--supervisor', '--json', '--max-iterations', '2', '-p', `task: ${m}`]);
        expect(run.code, run.stderr).toBe(expectCodes[m]);
        const file = path.join(world.root, `${m}.jsonl`);
        fs.writeFileSync(file, run.stdout);
        logs.push(file);
      }
      // The cost of one answer, as claude prices the scripted usage: the first run's first agent turn.
      const first = fs
        .readFileSync(logs[0]!, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((l) => l.kind === 'frame' && l.frame.type === 'result');
      const oneAnswer = Object.values(first.frame.model_usage_since_last_result as Record<string, { costUSD: number }>)[0]!.costUSD;
      await use({ server, world, logs, oneAnswer, setMode: (m) => (mode = m) });
    },
    { scope: 'file' },
  ],
});

// The first test to run makes the three runs: each may take that long.
describe('ccc report', { timeout: 180_000 }, () => {
  it('--format json: one row per run and the right totals', async ({ runs: { server, world, logs, oneAnswer } }) => {
    const run = await runCcc(world, ['report', '--format', 'json', ...logs]);
    expect(run.code, run.stderr).toBe(0);
    const table = JSON.parse(run.stdout);
    expect(
      table.runs.map((r: { task: string; outcome: string; exit_code: number; completed: boolean; reviews: number }) => [
        r.task,
        r.outcome,
        r.exit_code,
        r.completed,
        r.reviews,
      ]),
    ).toEqual([
      ['task: completed', 'completed', 0, true, 2],
      ['task: limit', 'limit', 3, false, 2],
      ['task: checker-failed', 'checker-failed', 4, false, 1],
    ]);
    // Agent turns: 2 + 3 + 1 (at the limit the last feedback is not sent: the third turn is the
    // wind-down, unreviewed, its cost counted); answered reviews: 2 + 2 + 0 (the failed one's
    // requests were errors).
    expect(server.byKind('agent')).toHaveLength(6);
    expect(oneAnswer).toBeGreaterThan(0);
    expect(table.totals.cost_usd).toBeCloseTo(10 * oneAnswer, 9);
    expect(table.totals.review_cost_usd).toBeCloseTo(4 * oneAnswer, 9);
    expect(table.runs.map((r: { cost_usd: number }) => r.cost_usd / oneAnswer).map(Math.round)).toEqual([4, 5, 1]);
    expect(table.totals).toMatchObject({ runs: 3, completed: 1, verified: 0, focused: 0, unverified: 1, failed: 2, reviews: 5 });
    // The reviewer answered complete without running a command: unverified.
    expect(table.runs.map((r: { verification: string }) => r.verification)).toEqual(['unverified', 'failed', 'failed']);
    expect(table.totals.review_cache_share).toBe(0);
    const durations = table.runs.map((r: { duration_ms: number }) => r.duration_ms);
    for (const d of durations) expect(d).toBeGreaterThan(0);
    expect(table.totals.duration_ms).toBe(durations.reduce((a: number, b: number) => a + b, 0));
  });

  it('Markdown by default: a table of the runs and a totals row', async ({ runs: { world, logs } }) => {
    const run = await runCcc(world, ['report', ...logs]);
    expect(run.code, run.stderr).toBe(0);
    const tokens = new MarkdownIt().parse(run.stdout, {});
    const rows: string[][] = [];
    for (const t of tokens) {
      if (t.type === 'tr_open') rows.push([]);
      if (t.type === 'inline' && rows.length > 0) rows[rows.length - 1]!.push((t.children ?? []).map((c) => c.content).join(''));
    }
    expect(rows.map((r) => r.slice(0, 5))).toEqual([
      ['Task', 'Outcome', 'Verification', 'Exit', 'Reviews'],
      ['task: completed', 'completed', '⚠️ unverified', '0', '2'],
      ['task: limit', 'iteration limit reached', '❌ failed', '3', '2'],
      ['task: checker-failed', 'checker failed', '❌ failed', '4', '1'],
      ['Total: 3 runs', '1 completed', '0 verified, 0 focused, 0 tests-changed, 1 unverified, 2 failed', '', '5'],
    ]);
    const json = JSON.parse((await runCcc(world, ['report', '--format', 'json', ...logs])).stdout);
    expect(rows[4]![5]).toBe(`$${json.totals.cost_usd < 0.01 ? json.totals.cost_usd.toFixed(4) : json.totals.cost_usd.toFixed(3)}`);
  });

  it('a run under caps: the table (JSON and Markdown) and its JUnit report show the spend against them', async ({ runs: { world, oneAnswer, setMode } }) => {
    setMode('limit');
    const events = path.join(world.root, 'capped.jsonl');
    const junit = path.join(world.root, 'capped.xml');
    const env = { CCC_SUPERVISOR_MAX_COST_USD: '5', CCC_SUPERVISOR_MAX_TASK_COST_USD: '4' };
    const run = await runCcc(world, ['--supervisor', '--max-iterations', '1', '--report', `events=${events}`, '--report', `junit=${junit}`, '-p', 'capped'], {
      env,
    });
    expect(run.code, run.stderr).toBe(3);
    const json = JSON.parse((await runCcc(world, ['report', '--format', 'json', events])).stdout);
    const row = json.runs[0];
    expect(row).toMatchObject({ cap_usd: 5, task_cap_usd: 4 });
    // The last verdict's spend: the agent's first turn and the one review, before the wind-down turn.
    expect(row.spent_usd).toBeCloseTo(2 * oneAnswer, 9);
    expect(row.task_spent_usd).toBeCloseTo(2 * oneAnswer, 9);
    const spent = `$${row.spent_usd.toFixed(2)}`;
    const caps = `spent ${spent} of $5.00, task ${spent} of $4.00`;
    const markdown = (await runCcc(world, ['report', events])).stdout;
    expect(markdown).toContain('| Cost | Caps |');
    expect(markdown).toContain(` | ${caps} | `);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toContain('<property name="cap_usd" value="5"/>');
    expect(xml).toContain(`<property name="spent_usd" value="${row.spent_usd}"/>`);
    expect(xml).toContain('<property name="task_cap_usd" value="4"/>');
    expect(xml).toContain(`caps: ${caps}`);
  });

  it('a bad line is an error naming the file and line; nothing is printed for the others', async ({ runs: { world, logs } }) => {
    const broken = path.join(world.root, 'broken.jsonl');
    const good = fs.readFileSync(logs[0]!, 'utf8').split('\n');
    fs.writeFileSync(broken, [good[0], good[1], '{"kind": "verdict", "feedback": "cut off', ...good.slice(2)].join('\n'));
    const run = await runCcc(world, ['report', logs[1]!, broken]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${broken}:3: not JSON`);
    const missing = await runCcc(world, ['report', path.join(world.root, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.jsonl does not exist/);
    const format = await runCcc(world, ['report', '--format', 'html', logs[0]!]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be markdown or json (got "html")');
  });
});
