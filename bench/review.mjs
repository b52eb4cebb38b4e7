/**
 * The review section: what a review costs and how soon it starts, with the real claude
 * against the scripted model server (imported from test/support through jiti, ccc's own
 * TypeScript loader).
 *
 * - share: the longest common prefix of a review's first request with the agent's request before
 *   it (tools, system, messages; cache markers and the billing line removed), as a share of the
 *   review request: what the prompt cache can serve. Headless `ccc --supervisor -p` runs with the
 *   starter SUPERVISOR.md that `ccc init` writes: the shortest session (one answer), and one where
 *   the agent read three 48 KiB files first. The review message (prompt, the user's requests, how
 *   to answer) is the only new text, so the share grows with the session.
 * - start-up: from the stop to the reviewer's first request at the model server, against a plain
 *   `claude -p` from spawn to its first request. On the standalone hook the stop is the spawn of
 *   `ccc supervisor-hook` with the hook JSON; on the interactive path (`ccc --supervisor` in a pty,
 *   a task typed per run) it is the moment claude starts its Stop hooks, written by a second Stop
 *   hook of the user's settings (`date +%s%3N`). Alternating, medians.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import { median } from './lib/stats.mjs';
import { CLI, ROOT } from './lib/variants.mjs';

const jiti = createJiti(import.meta.url);
const support = (name) => jiti.import(path.join(ROOT, 'test/support', name));

export function run(command, args, { env, cwd, input }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** Milliseconds from `t0` to the first request after it that is not background chatter. */
export function firstRequestAfter(server, t0) {
  const first = server.requests.find((r) => r.receivedAt >= t0 && r.kind !== 'background');
  return first ? first.receivedAt - t0 : undefined;
}

/** A source file of about `kib` KiB for the agent to read (a session with tool calls). */
function sourceFile(kib) {
  const line = 'export function add(a: number, b: number): number { return a + b; } // padding for size\n';
  return line.repeat(Math.ceil((kib * 1024) / line.length));
}

/**
 * One headless supervised run; the share of its first review request that is a prefix of the
 * agent's request before it. `reads`: files the agent reads before it answers.
 */
export async function measureShare({ startModelServer, makeClaudeWorld, sharedPrefixShare, supervisorTemplate }, reads) {
  const server = await startModelServer((r) => {
    if (r.kind === 'review') return { verdict: { completed: true, feedback: 'verified' } };
    const done = r.body.messages.filter((m) => m.role === 'assistant').length;
    return done < reads.length ? { toolUse: { name: 'Read', input: { file_path: reads[done] } } } : { text: 'Done: parse() and its tests are written.' };
  });
  const world = makeClaudeWorld({ modelUrl: server.url, env: { CCC_SUPERVISOR_MAX_ITERATIONS: '1000' } });
  reads = reads.map((name) => path.join(world.cwd, name));
  for (const file of reads) fs.writeFileSync(file, sourceFile(48));
  fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), supervisorTemplate('[TASK_COMPLETED]'));
  const result = await run(process.execPath, [CLI, '--supervisor', '--json', '-p', 'write parse() with tests'], { env: world.env, cwd: world.cwd });
  if (result.code !== 0) {
    await server.close();
    world.cleanup();
    throw new Error(`ccc --supervisor -p exited ${result.code}: ${result.stderr.slice(-300)}`);
  }
  const reviewAt = server.requests.findIndex((r) => r.kind === 'review');
  const agent = server.requests
    .slice(0, reviewAt)
    .filter((r) => r.kind === 'agent')
    .pop();
  const review = server.requests[reviewAt];
  const sessionId = result.stdout
    .split('\n')
    .map((l) => (l.startsWith('{') ? JSON.parse(l) : {}))
    .find((e) => e.frame?.session_id)?.frame.session_id;
  return { share: sharedPrefixShare(agent.body, review.body), reviewBytes: JSON.stringify(review.body).length, server, world, sessionId };
}

async function until(check, timeoutMs, what) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The interactive path: `ccc --supervisor` in a pty; each run types a task, the agent answers, and
 * the stop goes through the running ccc. Milliseconds from claude starting its Stop hooks to the
 * reviewer's first request, one per run, with `between` (the plain case) run after each.
 */
export async function measureInteractive({ startModelServer, makeClaudeWorld, startPty, supervisorTemplate }, runs, between, env = {}) {
  const server = await startModelServer((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'verified' } } : { text: 'Done.' }));
  const world = makeClaudeWorld({ modelUrl: server.url, env: { CCC_SUPERVISOR_MAX_ITERATIONS: '1000', ...env } });
  const stops = path.join(world.root, 'stops.txt');
  fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), supervisorTemplate('[TASK_COMPLETED]'));
  fs.writeFileSync(
    path.join(world.claudeDir, 'settings.json'),
    JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `date +%s%3N >> '${stops}'` }] }] } }),
  );
  const h = startPty(process.execPath, [CLI, '--supervisor'], { cwd: world.cwd, env: world.env });
  const times = [];
  try {
    await h.waitForScreen(/❯/, 60_000);
    for (let i = 0; i < runs + 1; i++) {
      const typedAt = Date.now();
      const reviews = server.byKind('review').length;
      await h.type(`task ${i}`, 5);
      h.press('\r');
      await until(() => h.output().toString('utf8').split(']0;ccc: ✓ review 1 complete').length > i + 1, 60_000, `the verdict of interactive run ${i}`);
      const review = server.byKind('review')[reviews];
      const stop = fs
        .readFileSync(stops, 'utf8')
        .split('\n')
        .map(Number)
        .find((ms) => ms >= typedAt);
      if (!review || stop === undefined) return { unavailable: `interactive run ${i}: ${!review ? 'no review request' : 'no stop recorded'}` };
      if (i > 0) times.push(performance.timeOrigin + review.receivedAt - stop); // the first run loads the reviewer's code
      await h.waitForScreen(/❯\s*$/m, 30_000);
      await between();
    }
    return { times };
  } finally {
    h.kill();
    await server.close();
    world.cleanup();
  }
}

export async function benchReview({ runs, log }) {
  const deps = {
    ...(await support('model-server.ts')),
    ...(await support('claude-env.ts')),
    ...(await support('prefix-share.ts')),
    ...(await support('pty-harness.ts')),
    ...(await import(path.join(ROOT, 'dist/starter/supervisor-template.js'))),
  };
  const long = await measureShare(deps, ['a.ts', 'b.ts', 'c.ts']);
  await long.server.close();
  long.world.cleanup();
  const { share, reviewBytes, server, world, sessionId } = await measureShare(deps, []);
  const { claudeBin } = deps;
  try {
    log(
      `review: share ${(share * 100).toFixed(1)}% of a ${Math.round(reviewBytes / 1024)} KiB request, ${(long.share * 100).toFixed(1)}% of ${Math.round(long.reviewBytes / 1024)} KiB after 3 file reads; start-up, ${runs} runs each…`,
    );
    const stop = stopInput(world, sessionId);
    const cases = {
      reviewer: async () => {
        // Each run is a new stop of the session, as a real one is (a new answer in the transcript):
        // without its state the replayed stop is not taken for the same stop again.
        fs.rmSync(path.join(world.claudeDir, 'ccc', `supervisor-${sessionId}.json`), { force: true });
        const t0 = performance.now();
        const r = await run(process.execPath, [CLI, 'supervisor-hook'], { env: world.env, cwd: world.cwd, input: stop });
        return r.code === 0 ? firstRequestAfter(server, t0) : undefined;
      },
      plain: async () => {
        const t0 = performance.now();
        const r = await run(claudeBin, ['-p', 'hello', '--output-format', 'stream-json', '--verbose'], { env: world.env, cwd: world.cwd });
        return r.code === 0 ? firstRequestAfter(server, t0) : undefined;
      },
    };
    const shares = { share, reviewBytes, longShare: long.share, longReviewBytes: long.reviewBytes };
    const times = { reviewer: [], plain: [] };
    for (let i = 0; i < runs + 1; i++) {
      for (const [name, measure] of i % 2 === 0 ? Object.entries(cases) : Object.entries(cases).reverse()) {
        const ms = await measure();
        if (ms === undefined) return { ...shares, unavailable: `the ${name} case reached no model request` };
        if (i > 0) times[name].push(ms); // the first round warms the file cache
      }
    }
    const reviewerMs = median(times.reviewer);
    const plainMs = median(times.plain);
    log(`review: interactive path, ${runs} runs…`);
    const interactivePlain = [];
    const interactive = await measureInteractive(deps, runs, async () => {
      const ms = await cases.plain();
      if (ms !== undefined) interactivePlain.push(ms);
    });
    const interactiveFigures =
      'times' in interactive
        ? {
            interactiveMs: median(interactive.times),
            interactivePlainMs: median(interactivePlain.slice(1)),
            interactiveRatio: median(interactive.times) / median(interactivePlain.slice(1)),
            interactiveRunsMs: { interactive: interactive.times, plain: interactivePlain.slice(1) },
          }
        : { interactiveUnavailable: interactive.unavailable };
    return { ...shares, reviewerMs, plainMs, ratio: reviewerMs / plainMs, runsMs: times, ...interactiveFigures };
  } finally {
    await server.close();
    world.cleanup();
  }
}

/** The Stop hook's input for the session's last turn, as Claude Code gives it. */
export function stopInput(world, sessionId) {
  const transcript = path.join(world.home, '.claude', 'projects', world.cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`);
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: world.cwd,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'Done.',
    background_tasks: [],
  });
}
