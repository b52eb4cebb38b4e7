/**
 * A checker plugin in its own worker thread (the built worker from dist/): the same `ctx` and
 * hooks for its author, and nothing it does to its thread reaches ccc's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startIsolatedPlugin } from '../../src/checkers/isolated-plugin.js';
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import type { Usage } from '../../src/checkers/types.js';
import { checkContext } from './check-context.js';
import { repoRoot } from '../support/claude-env.js';

let project: string;
const started: Array<{ dispose(): Promise<void> }> = [];
beforeEach(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-isolated-')));
});
afterEach(async () => {
  for (const plugin of started.splice(0)) await plugin.dispose();
  fs.rmSync(project, { recursive: true, force: true });
});

async function plugin(source: string, options: Record<string, unknown> = {}, file = 'plugin.mjs', maxMemoryMb?: number) {
  fs.writeFileSync(path.join(project, file), source);
  const checker = await startIsolatedPlugin({ specifier: `./${file}`, cwd: project, options, timeoutSeconds: 5, maxMemoryMb });
  started.push(checker);
  return checker;
}

const never = new AbortController().signal;

const rssMb = () => process.memoryUsage().rss / 1048576;

/**
 * Keeps every object it makes at its first check, writing the process's RSS (MB, from
 * /proc/self/status: the whole process, every thread) after each batch; past 1.5 GB it gives up
 * and answers, so that a missing heap limit fails the test instead of exhausting the machine.
 */
const HOG = (peak: string) => `import fs from 'node:fs';
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
export default { name: 'hog', check(ctx) {
  if (ctx.iteration > 1) return { completed: true, feedback: 'fresh thread' };
  const kept = [];
  for (;;) {
    for (let i = 0; i < 20000; i++) kept.push({ i, text: 'x' + i, list: [i, i + 1, i + 2] });
    const now = rss();
    fs.writeFileSync(${JSON.stringify(peak)}, String(now));
    if (now > 1536) return { completed: false, feedback: 'UNBOUNDED' };
  }
} };`;

describe('a plugin in its own thread', () => {
  it('sees the same ctx and hooks: options, frames, env, the logger, usage and cost reports, session info', async () => {
    const checker = await plugin(
      `
      let frames = 0;
      let session;
      export default (options) => ({
        name: 'probe-' + options.n,
        onSessionStart(info) { session = info.sessionId; info.logger.info('started', { cwd: info.cwd }); },
        onFrame() { frames++; },
        check(ctx, signal) {
          ctx.logger.warn('checking', { iteration: ctx.iteration, aborted: signal.aborted });
          ctx.reportUsage({ input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 2, cost_usd: 0.5 });
          ctx.reportCost(0.25);
          return { completed: false, feedback: [session, frames, ctx.frames.length, ctx.env.PROBE_ENV, ctx.userPrompts[0]].join(' ') };
        },
        onSessionEnd(info) { info.logger.info('ended'); },
      });`,
      { n: 3 },
    );
    expect(checker.name).toBe('probe-3');
    const logger = createRecordingLogger();
    await checker.onSessionStart!({ sessionId: 'sess-9', cwd: project, logger });
    checker.onFrame!({ type: 'assistant' });
    checker.onFrame!({ type: 'user' });
    const usage: Array<Partial<Usage>> = [];
    const costs: number[] = [];
    const ctx = checkContext(project, {
      logger,
      frames: [{ type: 'assistant' }],
      env: { PROBE_ENV: 'env-ok' },
      reportUsage: (u) => usage.push(u),
      reportCost: (c) => costs.push(c),
    });
    expect(await checker.check(ctx, never)).toEqual({ completed: false, feedback: 'sess-9 2 1 env-ok make the tests pass' });
    expect(usage).toEqual([{ input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 2, cost_usd: 0.5 }]);
    expect(costs).toEqual([0.25]);
    await checker.onSessionEnd!({ sessionId: 'sess-9', cwd: project, logger });
    expect(logger.lines.map((l) => [l.level, l.message, l.fields])).toEqual([
      ['info', 'started', { cwd: project, checker: 'probe-3' }],
      ['warn', 'checking', { iteration: 1, aborted: false, checker: 'probe-3' }],
      ['info', 'ended', { checker: 'probe-3' }],
    ]);
  });

  it("a message on the port that is not the worker's (the plugin posted it) is ignored and said once in the log; the check's answer stands", async () => {
    const checker = await plugin(`
      import { parentPort } from 'node:worker_threads';
      export default { name: 'poster', check() {
        for (const junk of [null, 'text', { type: 'done' }, { type: 'log', level: 'shout', message: 1 }, { type: 'mine' }]) parentPort.postMessage(junk);
        return { completed: true, feedback: 'fine' };
      } };`);
    const logger = createRecordingLogger();
    await checker.onSessionStart!({ sessionId: 'sess-1', cwd: project, logger });
    expect(await checker.check(checkContext(project, { logger }), never)).toEqual({ completed: true, feedback: 'fine' });
    expect(await checker.check(checkContext(project, { logger, iteration: 2 }), never)).toEqual({ completed: true, feedback: 'fine' });
    const said = logger.lines.filter((l) => l.message.includes('not ccc'));
    expect(said.map((l) => [l.level, l.message])).toEqual([['warn', 'checker "poster": its thread sent a message that is not ccc\'s (null); ignored']]);
  });

  it('process.exit in a check fails that check naming the plugin; the next check runs in a fresh thread', async () => {
    const checker = await plugin(`
      let checks = 0;
      export default { name: 'exiter', check(ctx) { checks++; if (ctx.iteration === 1) process.exit(7); return { completed: true, feedback: 'checks=' + checks }; } };`);
    await expect(checker.check(checkContext(project), never)).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message: 'checker "exiter" failed: its plugin ./plugin.mjs called process.exit(7)',
      data: { checker: 'exiter', exit_code: 7 },
    });
    expect(await checker.check(checkContext(project, { iteration: 2 }), never)).toEqual({ completed: true, feedback: 'checks=1' });
  });

  it('a check that spins past its abort: the thread is stopped, the late answer never arrives, the next check gets a fresh thread', async () => {
    const checker = await plugin(`
      let checks = 0;
      export default { name: 'spinner', check(ctx) {
        checks++;
        if (ctx.iteration === 1) { const end = Date.now() + 60000; while (Date.now() < end) {} return { completed: false, feedback: 'late' }; }
        return { completed: true, feedback: 'checks=' + checks };
      } };`);
    const abort = new AbortController();
    const answer = checker.check(checkContext(project), abort.signal);
    abort.abort(new Error('timeout'));
    await expect(answer).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message: expect.stringContaining('was stopped: it did not stop within 1000 ms of being told to'),
    });
    expect(await checker.check(checkContext(project, { iteration: 2 }), never)).toEqual({ completed: true, feedback: 'checks=1' });
  });

  it("a plugin that allocates without end runs out of its own heap, named with the limit; this process's RSS stays bounded", async () => {
    const peak = path.join(project, 'peak-rss');
    const checker = await plugin(HOG(peak), {}, 'hog.mjs', 64);
    const before = rssMb();
    await expect(checker.check(checkContext(project), never)).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message:
        'checker "hog" failed: its plugin ./hog.mjs ran out of memory (limit 64 MB; raise supervisor.plugin_max_memory_mb or CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB)',
    });
    // The process's RSS as the plugin saw it just before its thread died: its 64 MB heap and V8's overhead, never the machine.
    expect(Number(fs.readFileSync(peak, 'utf8')) - before).toBeLessThan(400);
    expect(await checker.check(checkContext(project, { iteration: 2 }), never)).toEqual({ completed: true, feedback: 'fresh thread' });
  });

  it('an answer after the abort is ignored, even from a plugin that does not spin', async () => {
    const checker = await plugin(
      `export default { name: 'slow', check: () => new Promise((resolve) => setTimeout(() => resolve({ completed: true, feedback: 'late' }), 100)) };`,
    );
    const abort = new AbortController();
    const answer = checker.check(checkContext(project), abort.signal);
    abort.abort(new Error('timeout'));
    await expect(answer).rejects.toMatchObject({ code: 'CHECKER_TIMEOUT', message: expect.stringContaining('answer is ignored') });
  });

  it("stdout and stderr go to the session log, line by line, never to ccc's own streams", async () => {
    const checker = await plugin(
      `export default { name: 'noisy', check() { console.log('one\\ntwo'); process.stderr.write('three\\n'); return { completed: true, feedback: '' }; } };`,
    );
    const logger = createRecordingLogger();
    await checker.onSessionStart!({ cwd: project, logger });
    await checker.check(checkContext(project, { logger }), never);
    await expect.poll(() => logger.lines.length).toBe(3);
    expect(logger.lines.map((l) => [l.level, l.fields.text, l.message])).toEqual([
      ['info', 'one', 'checker "noisy" wrote to stdout'],
      ['info', 'two', 'checker "noisy" wrote to stdout'],
      ['warn', 'three', 'checker "noisy" wrote to stderr'],
    ]);
  });

  it('errors keep their meaning across the thread: a plain throw, a CccError with its code', async () => {
    const checker = await plugin(`
      import { CccError } from 'ccc-supervisor';
      export default { name: 'thrower', check(ctx) {
        if (ctx.iteration === 1) throw new Error('cannot reach the CI server');
        throw new CccError('CHECKER_FAILED', 'the gate is closed', { data: { gate: 'main' } });
      } };`);
    await expect(checker.check(checkContext(project), never)).rejects.toThrow(/^cannot reach the CI server$/);
    await expect(checker.check(checkContext(project, { iteration: 2 }), never)).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message: 'the gate is closed',
      data: { gate: 'main' },
    });
  });

  it("a CccError from the plugin's own copy of the package keeps its code and data", async () => {
    fs.copyFileSync(path.join(repoRoot, 'dist', 'errors.js'), path.join(project, 'own-copy-errors.mjs'));
    const checker = await plugin(`
      import { CccError } from './own-copy-errors.mjs';
      export default { name: 'thrower', check() {
        throw new CccError('CHECKER_FAILED', 'the gate is closed', { data: { gate: 'main' } });
      } };`);
    await expect(checker.check(checkContext(project), never)).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message: 'the gate is closed',
      data: { gate: 'main' },
      exitCode: 4,
    });
  });

  it('a plugin that cannot load is PLUGIN_INVALID naming it: a loader error, process.exit while loading', async () => {
    await expect(plugin(`export const x = 1;`)).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: expect.stringMatching(/Checker plugin "\.\/plugin\.mjs" has no default export \(it exports only x\)/),
    });
    await expect(plugin(`process.exit(9);`, {}, 'exits.mjs')).rejects.toMatchObject({
      code: 'PLUGIN_INVALID',
      message: 'Checker plugin "./exits.mjs" ended while loading (it called process.exit(9))',
    });
  });
});
