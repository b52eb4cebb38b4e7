/**
 * A headless run on a GitHub Actions runner, with the real claude against the scripted model
 * server: `GITHUB_STEP_SUMMARY` and `GITHUB_OUTPUT` point at temporary files. The summary is
 * parsed as Markdown, the outputs and the workflow commands are read back as GitHub's runner reads
 * them (test/support/github-runner.ts), and the JUnit file is checked against the schemas.
 */
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect } from 'vitest';
import { runCcc } from '../../support/ccc-run.js';
import { it, type Rig } from '../../support/fixtures.js';
import { runnerCommands, runnerOutputs } from '../../support/github-runner.js';
import { junitSchemaErrors } from '../../support/junit-schemas.js';
import type { RecordedRequest, Reply } from '../../support/model-server.js';
import { reviewStep } from '../../support/review-script.js';

/** Feedback a model could give that would break a naive report: line ends, `%`, `::`, CR, markup. */
const FEEDBACK = 'Tests fail | <b>parse()</b> `rm -rf` [x](http://e.example)\r\nsecond: 50% done %0A :: ::error::forged\nthird ::set-output name=x::y';

describe('--report github (GITHUB_ACTIONS=true)', () => {
  async function setup(rig: Rig, review: (index: number, request: RecordedRequest) => Reply, agent: (index: number) => Reply) {
    const { server, world } = await rig.start((r) => (r.kind === 'review' ? review(r.index, r) : agent(r.index)));
    const summary = path.join(world.root, 'step-summary.md');
    const output = path.join(world.root, 'github-output');
    fs.writeFileSync(summary, '# Earlier step content\n\n');
    fs.writeFileSync(output, 'earlier=kept\n');
    return { server, world, summary, output, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output } };
  }

  it('a run that hits the limit: summary table, exact outputs, one ::error with the feedback intact, the agent cannot forge commands', async ({ rig }) => {
    const { world, ...gh } = await setup(
      rig,
      () => ({ verdict: { completed: false, feedback: FEEDBACK } }),
      (i) => ({ text: `answer ${i}\n::warning::forged by the agent\n  ::add-mask::x` }),
    );
    const junit = path.join(world.root, 'reports', 'junit.xml');
    const run = await runCcc(world, ['--supervisor', '--max-iterations', '1', '--report', `junit=${junit}`, '-p', 'write parse() | with <i>tests</i>'], {
      env: gh.env,
    });
    expect(run.code).toBe(3);

    // Workflow commands, read as the runner reads stdout: only ccc's own annotation.
    expect(run.stdout).toContain('::warning::forged by the agent');
    const commands = runnerCommands(run.stdout);
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ name: 'error', properties: { title: 'ccc: iteration limit reached' } });
    expect(commands[0]!.message).toContain(`Last feedback (claude): ${FEEDBACK}`);
    expect(runnerCommands(run.stderr)).toEqual([]);

    // Outputs, by the runner's rules, after what an earlier step wrote.
    const outputs = runnerOutputs(fs.readFileSync(gh.output, 'utf8'));
    expect(outputs).toMatchObject({
      earlier: 'kept',
      completed: 'false',
      verified: 'false',
      verification: 'failed',
      exit_code: '3',
      outcome: 'limit',
      reviews: '1',
      feedback: FEEDBACK,
      junit_file: junit,
    });
    expect(outputs.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.existsSync(outputs.log_file!)).toBe(true);
    expect(outputs.log_file).toContain(outputs.session_id);
    expect(Number(outputs.cost_usd)).toBeGreaterThan(0);

    // The summary, appended after the earlier step's, parsed as Markdown: one review row and the totals.
    const summary = fs.readFileSync(gh.summary, 'utf8');
    if (process.env.DUMP)
      fs.writeFileSync(process.env.DUMP, [summary, run.stdout, fs.readFileSync(gh.output, 'utf8'), fs.readFileSync(junit, 'utf8')].join('\n----\n'));
    expect(summary.startsWith('# Earlier step content\n\n')).toBe(true);
    const md = new MarkdownIt({ html: true });
    const tokens = md.parse(summary, {});
    for (const t of tokens) expect(t.type).not.toMatch(/html/);
    for (const t of tokens.flatMap((t) => t.children ?? [])) expect(t.type).not.toMatch(/html|code|link|image/);
    const rows = tableRows(tokens);
    expect(rows[0]).toEqual(['#', 'Checker', 'Verdict', 'Verification', 'Feedback', 'Duration', 'Cost', 'Cache']);
    expect(rows).toHaveLength(3);
    expect(rows[1]!.slice(0, 5)).toEqual(['1', 'claude', '✗ not complete', 'failed', 'Tests fail | <b>parse()</b> `rm -rf` [x](http://e.example)']);
    expect(rows[1]![5]).toMatch(/^\d+(\.\d)? m?s$/);
    expect(rows[2]![0]).toBe('Total');
    const text = md.render(summary);
    expect(text).toContain('iteration limit reached');
    expect(text).toContain('exit code 3');
    expect(text).toContain('write parse() | with &lt;i&gt;tests&lt;/i&gt;');
    expect(text).toContain(outputs.log_file!);

    // The JUnit file: valid, the review a failure with the whole feedback.
    const xml = fs.readFileSync(junit, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual({ jenkins: [], ant: [] });
    expect(xml).toContain('failures="2" errors="0"');
    expect(xml).toContain('second: 50% done %0A :: ::error::forged\nthird');
  });

  it("--json: stdout stays JSON lines; a completion on the reviewer's word alone is unverified in every report, exit 0", async ({ rig }) => {
    const { world, ...gh } = await setup(
      rig,
      () => ({ verdict: { completed: true, feedback: 'all done: 100%' } }),
      () => ({ text: 'done' }),
    );
    const junit = path.join(world.root, 'junit.xml');
    const run = await runCcc(world, ['--supervisor', '--json', '--report', `junit=${junit}`, '-p', 'do it'], { env: gh.env });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; verification?: string });
    expect(events.find((e) => e.kind === 'verdict')).toMatchObject({ completed: true, verification: 'unverified' });
    expect(runnerCommands(run.stderr)).toEqual([
      {
        name: 'warning',
        properties: { title: 'ccc: completed, unverified' },
        message: expect.stringContaining('no verification command ran green during its review: the completion is unverified'),
      },
    ]);
    expect(runnerCommands(run.stderr)[0]!.message).toContain('Last feedback (claude): all done: 100%');
    expect(runnerOutputs(fs.readFileSync(gh.output, 'utf8'))).toMatchObject({
      completed: 'true',
      verified: 'false',
      verification: 'unverified',
      exit_code: '0',
      outcome: 'completed',
      reviews: '1',
      feedback: 'all done: 100%',
    });
    const summary = fs.readFileSync(gh.summary, 'utf8');
    expect(summary).toContain('### ⚠️ ccc: completed, unverified');
    expect(summary).toContain('**Verification:** unverified: ');
    expect(tableRows(new MarkdownIt().parse(summary, {}))[1]!.slice(2, 4)).toEqual(['⚠ complete', 'unverified']);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual({ jenkins: [], ant: [] });
    expect(xml).toContain('<failure type="unverified"');
  });

  it('a completion the reviewer verified by running the tests is verified in every report', async ({ rig }) => {
    const { world, ...gh } = await setup(
      rig,
      (_, r) =>
        reviewStep(r) === 0
          ? { toolUse: { name: 'Bash', input: { command: 'npm test', description: 'run the tests' } } }
          : { verdict: { completed: true, feedback: 'npm test passes.' } },
      () => ({ text: 'done' }),
    );
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'v', scripts: { test: 'node --test' } }));
    fs.writeFileSync(path.join(world.cwd, 'ok.test.js'), "require('node:test')('ok', () => {});\n");
    const junit = path.join(world.root, 'junit.xml');
    const run = await runCcc(world, ['--supervisor', '--report', `junit=${junit}`, '-p', 'do it'], { env: gh.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('✓ complete (claude, verified by: npm test');
    expect(runnerCommands(run.stdout)).toEqual([
      {
        name: 'notice',
        properties: { title: 'ccc: completed, verified' },
        message: expect.stringMatching(/^The checker confirmed completion, verified by: npm test \(1 test\) \(1 review, /),
      },
    ]);
    expect(runnerOutputs(fs.readFileSync(gh.output, 'utf8'))).toMatchObject({ completed: 'true', verified: 'true', verification: 'verified' });
    const summary = fs.readFileSync(gh.summary, 'utf8');
    expect(summary).toContain('### ✅ ccc: completed, verified');
    expect(tableRows(new MarkdownIt().parse(summary, {}))[1]!.slice(2, 4)).toEqual([
      '✓ complete',
      expect.stringMatching(/^verified by: npm test \(\d+ tests?\)$/),
    ]);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual({ jenkins: [], ant: [] });
    expect(xml).toContain('failures="0" errors="0"');
    expect(xml).toContain('<property name="verification" value="verified"/>');
  });

  it('--report none turns the GitHub report off; a report file that cannot be written is exit 2 before claude starts', async ({ rig }) => {
    const { server, world, ...gh } = await setup(
      rig,
      () => ({ verdict: { completed: true, feedback: 'ok' } }),
      () => ({ text: 'done' }),
    );
    const off = await runCcc(world, ['--supervisor', '--report', 'none', '-p', 'do it'], { env: gh.env });
    expect(off.code).toBe(0);
    expect(fs.readFileSync(gh.summary, 'utf8')).toBe('# Earlier step content\n\n');
    expect(runnerCommands(off.stdout)).toEqual([]);
    const before = server.requests.length;
    fs.writeFileSync(path.join(world.root, 'a-file'), '');
    const bad = await runCcc(world, ['--supervisor', '--report', `junit=${path.join(world.root, 'a-file', 'junit.xml')}`, '-p', 'do it'], { env: gh.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--report junit=.*a-file\/junit\.xml: cannot write there/);
    const unknown = await runCcc(world, ['--supervisor', '--report', 'html', '-p', 'do it'], { env: gh.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--report must be github, junit=<file>, events=<file> or none (got "html")');
    expect(server.requests.length).toBe(before);
  });
});

/** The cells of the first table, header row first, as text. */
function tableRows(tokens: ReturnType<InstanceType<typeof MarkdownIt>['parse']>): string[][] {
  const rows: string[][] = [];
  for (const t of tokens) {
    if (t.type === 'table_close') break;
    if (t.type === 'tr_open') rows.push([]);
    if (t.type === 'inline' && rows.length > 0) rows[rows.length - 1]!.push((t.children ?? []).map((c) => c.content).join(''));
  }
  return rows;
}
