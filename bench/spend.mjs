/**
 * What a user pays: the real claude against the scripted model server, headless `ccc --supervisor
 * -p --json` runs, the model's `usage` made by a simulated prompt cache.
 *
 * - per review, a short session (the agent answers at once; the reviewer runs `npm test`, then
 *   answers) and a long one (the agent reads three 48 KiB files; the first review sends it back,
 *   it reads a fourth; the second review runs `npm test`): the requests that reached the server
 *   for the review, its input, cache-read, cache-write and output tokens, the cache-read share,
 *   and the cost claude reported for it (the `--json` verdict's `usage`, from claude's result frames).
 *   The simulated cache: a request's longest prefix shared with any earlier request (tools, system,
 *   messages: test/support/prefix-share.ts) is read from the cache, the rest written to it; four
 *   characters to a token. What claude reports as the cost is its own price list applied to those.
 * - a wait: the agent's first two requests are refused 429 (`retry-after` an hour, so claude gives
 *   up at once); ccc waits on its schedule (`CCC_SUPERVISOR_LIMIT_RETRY_SECONDS=1`: 1 s, then 2 s)
 *   and resumes. Counted: requests reaching the server during each wait (from the `waiting`
 *   event to the time it names; must be 0), each wait's length, the run's wall time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import { run } from './review.mjs';
import { CLI, ROOT } from './lib/variants.mjs';

const jiti = createJiti(import.meta.url);
const support = (name) => jiti.import(path.join(ROOT, 'test/support', name));
const CHARS_PER_TOKEN = 4;

/** Replies with `usage` as a prompt cache would count the request: what an earlier request shares is read. */
function withSimulatedCache(scenario, { canonicalRequest, sharedPrefixLength }) {
  const seen = [];
  return (r) => {
    const reply = scenario(r);
    if ('error' in reply) return reply;
    const text = canonicalRequest(r.body);
    const cached = seen.reduce((best, earlier) => Math.max(best, sharedPrefixLength(earlier, text)), 0);
    seen.push(text);
    const tokens = (chars) => Math.round(chars / CHARS_PER_TOKEN);
    return {
      ...reply,
      usage: { input_tokens: 3, cache_read_input_tokens: tokens(cached), cache_creation_input_tokens: tokens(text.length - cached), output_tokens: 120 },
    };
  };
}

function project(cwd) {
  fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test' } }));
  fs.mkdirSync(path.join(cwd, 'test'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'test', 'a.test.js'), "require('node:test')('adds', () => {});\n");
}

function sourceFile(kib) {
  const line = 'export function add(a: number, b: number): number { return a + b; } // padding for size\n';
  return line.repeat(Math.ceil((kib * 1024) / line.length));
}

const events = (stdout) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

/**
 * One headless session; per review: requests, tokens, share, claude's cost. `plan`: the agent's
 * steps across its turns, a file to read or `null` for its answer (which ends a turn).
 */
async function session(deps, { plan, sendBackFirst }) {
  const reads = plan.filter(Boolean);
  const reviewSteps = (r) => deps.reviewStep(r);
  const agentReads = (r) => r.body.messages.filter((m) => m.role === 'assistant').length;
  const scenario = (r) => {
    if (r.kind === 'review') {
      if (sendBackFirst && r.lastUserText.includes('review 1 of')) return { verdict: { completed: false, feedback: 'read d.ts too and say what it adds' } };
      const step = reviewSteps(r);
      return step === 0
        ? { toolUse: { name: 'Bash', input: { command: 'npm test', description: 'run the tests' } } }
        : { verdict: { completed: true, feedback: 'npm test passes' } };
    }
    if (r.kind !== 'agent') return { text: 'ok' };
    const file = plan[agentReads(r)];
    return file ? { toolUse: { name: 'Read', input: { file_path: path.join(cwd, file) } } } : { text: 'Done: parse() and its tests are written.' };
  };
  const server = await deps.startModelServer(withSimulatedCache(scenario, deps));
  const world = deps.makeClaudeWorld({ modelUrl: server.url });
  const cwd = world.cwd;
  try {
    for (const file of reads) fs.writeFileSync(path.join(cwd, file), sourceFile(48));
    project(world.cwd);
    fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), deps.supervisorTemplate('[TASK_COMPLETED]'));
    const result = await run(process.execPath, [CLI, '--supervisor', '--json', '-p', 'write parse() with tests'], { env: world.env, cwd: world.cwd });
    if (result.code !== 0) throw new Error(`ccc --supervisor -p exited ${result.code}: ${result.stderr.slice(-300)}`);
    const verdicts = events(result.stdout).filter((e) => e.kind === 'verdict');
    // A review's requests: those of kind `review` from its first (step 0) to the next review's first.
    const reviewRequests = server.requests.filter((r) => r.kind === 'review');
    const starts = reviewRequests.map((r, i) => (deps.reviewStep(r) === 0 ? i : -1)).filter((i) => i >= 0);
    const reviews = verdicts.map((v, n) => {
      const u = v.usage ?? {};
      const input = (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
      return {
        completed: v.completed,
        kind: v.review,
        requests: (starts[n + 1] ?? reviewRequests.length) - (starts[n] ?? 0),
        inputTokens: u.input_tokens ?? 0,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        outputTokens: u.output_tokens ?? 0,
        cacheReadShare: input > 0 ? (u.cache_read_input_tokens ?? 0) / input : 0,
        costUsd: u.cost_usd ?? 0,
      };
    });
    const end = events(result.stdout).find((e) => e.kind === 'end');
    return { reviews, agentRequests: server.byKind('agent').length, reviewRequests: reviewRequests.length, totalReviewCostUsd: end?.review_usage?.cost_usd };
  } finally {
    await server.close();
    world.cleanup();
  }
}

/** A wait on the model's limit: the requests during it (must be 0) and its length. */
async function limitWait(deps) {
  const limited = {
    error: { status: 429, type: 'rate_limit_error', message: 'Number of request tokens has exceeded your rate limit', headers: { 'retry-after': '3600' } },
  };
  const server = await deps.startModelServer((r) => {
    if (r.kind === 'agent' && r.index < 2) return limited;
    return r.kind === 'review' ? { verdict: { completed: true, feedback: 'verified' } } : { text: 'Done.' };
  });
  const world = deps.makeClaudeWorld({ modelUrl: server.url, env: { CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: '1' } });
  try {
    fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), deps.supervisorTemplate('[TASK_COMPLETED]'));
    const started = Date.now();
    const result = await run(process.execPath, [CLI, '--supervisor', '--json', '-p', 'build it'], { env: world.env, cwd: world.cwd });
    const wallMs = Date.now() - started;
    if (result.code !== 0) throw new Error(`ccc --supervisor -p exited ${result.code}: ${result.stderr.slice(-300)}`);
    const at = (r) => performance.timeOrigin + r.receivedAt;
    const waits = events(result.stdout)
      .filter((e) => e.kind === 'waiting')
      .map((e) => {
        const from = Date.parse(e.at);
        const until = Date.parse(e.until);
        return { ms: until - from, requests: server.requests.filter((r) => at(r) > from && at(r) < until).length };
      });
    const agent = server.byKind('agent');
    return {
      waits,
      refusedToResumeMs: agent.length >= 3 ? agent[2].receivedAt - agent[0].receivedAt : undefined,
      requestsWhileWaiting: waits.reduce((sum, w) => sum + w.requests, 0),
      waitedMs: waits.reduce((sum, w) => sum + w.ms, 0),
      wallMs,
      agentRequests: server.byKind('agent').length,
    };
  } finally {
    await server.close();
    world.cleanup();
  }
}

export async function benchSpend({ log }) {
  const deps = {
    ...(await support('model-server.ts')),
    ...(await support('claude-env.ts')),
    ...(await support('prefix-share.ts')),
    ...(await support('review-script.ts')),
    ...(await import(path.join(ROOT, 'dist/starter/supervisor-template.js'))),
  };
  log('spend: a short session (one answer, one review)…');
  const short = await session(deps, { plan: [null], sendBackFirst: false });
  log('spend: a long session (three 48 KiB reads, sent back once, two reviews)…');
  const long = await session(deps, { plan: ['a.ts', 'b.ts', 'c.ts', null, 'd.ts', null], sendBackFirst: true });
  log('spend: a wait on the model limit (429, retry schedule 1 s then 2 s)…');
  const wait = await limitWait(deps);
  return { short, long, wait };
}
