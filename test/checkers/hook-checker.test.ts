import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookChecker, parseHookAnswer } from '../../src/checkers/hook-checker.js';
import { runPipeline } from '../../src/checkers/pipeline.js';
import { needs } from '../support/tools.js';
import { checkContext, processesMentioning } from './check-context.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-hook-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const signal = () => new AbortController().signal;
const env = (extra: NodeJS.ProcessEnv = {}) => ({ PATH: process.env.PATH, ...extra });

describe('the hook checker', () => {
  it('a shell hook gets the context as JSON on stdin (data only) and its verdict drives the answer', async () => {
    const copy = path.join(dir, 'input.json');
    const checker = hookChecker({ command: `sh ${path.join(fixtures, 'verdict-hook.sh')}` });
    const ctx = checkContext(dir, { env: env({ HOOK_INPUT_COPY: copy }), lastAssistantMessage: 'working on it', iteration: 2 });
    expect(await checker.check(ctx, signal())).toEqual({ completed: false, feedback: 'shell hook: say DONE' });
    expect(JSON.parse(fs.readFileSync(copy, 'utf8'))).toEqual({
      sessionId: 'session-1',
      transcriptPath: '/nonexistent/transcript.jsonl',
      cwd: dir,
      userPrompts: ['make the tests pass'],
      lastAssistantMessage: 'working on it',
      iteration: 2,
      maxIterations: 5,
      completionMarker: '[TASK_COMPLETED]',
      timeoutSeconds: 30,
    });
    const done = await checker.check({ ...ctx, lastAssistantMessage: 'DONE, really' }, signal());
    expect(done).toEqual({ completed: true, feedback: 'shell hook: done' });
  });

  it('a Python hook works the same way (allow_stop accepted for completed)', async ({ skip }) => {
    needs({ skip }, 'python3');
    const checker = hookChecker({ command: `python3 ${path.join(fixtures, 'verdict-hook.py')}` });
    const ctx = checkContext(dir, { env: env(), lastAssistantMessage: 'half way' });
    expect(await checker.check(ctx, signal())).toEqual({ completed: false, feedback: 'python: the user asked: make the tests pass' });
    expect(await checker.check({ ...ctx, lastAssistantMessage: 'DONE', iteration: 3 }, signal())).toEqual({
      completed: true,
      feedback: 'python: ok after 3/5',
    });
  });

  it('never interpolates the context into the command line', async () => {
    const checker = hookChecker({ command: 'cat > /dev/null; echo \'{"completed": true, "feedback": ""}\'' });
    const hostile = `$(touch ${dir}/pwned1) \`touch ${dir}/pwned2\` '; touch ${dir}/pwned3; '`;
    await checker.check(checkContext(dir, { env: env(), lastAssistantMessage: hostile, userPrompts: [hostile] }), signal());
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a non-zero exit is CHECKER_FAILED with the exit code and the stderr tail in data', async () => {
    const checker = hookChecker({ command: 'echo "cannot reach the CI server" >&2; exit 7' });
    const error = await Promise.resolve(checker.check(checkContext(dir, { env: env() }), signal())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'CHECKER_FAILED',
      message: expect.stringMatching(/exited with code 7.*cannot reach the CI server/),
      data: { exit_code: 7, stderr: expect.stringContaining('cannot reach the CI server') },
    });
  });

  it('garbage or a wrong shape on stdout is CHECKER_FAILED saying what was printed and what is expected', async () => {
    const garbage = hookChecker({ command: 'echo "looks good to me"' });
    await expect(garbage.check(checkContext(dir, { env: env() }), signal())).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message: expect.stringMatching(/not JSON: "looks good to me".*must print \{"completed"/),
      data: { exit_code: 0 },
    });
    const shape = hookChecker({ command: `echo '{"done": "yes"}'` });
    await expect(shape.check(checkContext(dir, { env: env() }), signal())).rejects.toThrow(/without a boolean "completed"/);
    const silent = hookChecker({ command: 'true' });
    await expect(silent.check(checkContext(dir, { env: env() }), signal())).rejects.toThrow(/printed nothing/);
  });

  it('a hook that hangs is killed at its time limit (CHECKER_TIMEOUT), with no process left behind', async () => {
    const marker = `ccc-hook-hang-${process.pid}-${Date.now()}`;
    const nap = `298.${process.pid}${Date.now() % 100000}`; // a unique sleep length names the grandchild
    fs.writeFileSync(path.join(dir, `${marker}.sh`), `echo "thinking" >&2\nsleep ${nap} &\nsleep 301\n`);
    const checker = hookChecker({ command: `sh ./${marker}.sh` });
    const error = await Promise.resolve(checker.check(checkContext(dir, { env: env(), timeoutSeconds: 2 }), signal())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'CHECKER_TIMEOUT',
      message: expect.stringMatching(/did not answer within 1.5s and was killed/),
      data: { stderr: 'thinking' },
    });
    // Teardown is asynchronous: wait until neither the script nor its backgrounded grandchild runs.
    await expect.poll(async () => [...(await processesMentioning(marker)), ...(await processesMentioning(nap))], { timeout: 10_000 }).toEqual([]);
  });

  it('in a pipeline, a failing hook is named in the error and the next checker never runs', async () => {
    let nextRan = false;
    const entries = [
      { checker: hookChecker({ command: 'exit 1', name: 'ci-hook' }), timeoutSeconds: 20 },
      { checker: { name: 'next', check: () => ((nextRan = true), { completed: true, feedback: '' }) }, timeoutSeconds: 5 },
    ];
    await expect(runPipeline(entries, checkContext(dir, { env: env() }))).rejects.toMatchObject({
      code: 'CHECKER_FAILED',
      message: expect.stringMatching(/checker "ci-hook".*exited with code 1/),
      data: { checker: 'ci-hook', exit_code: 1 },
    });
    expect(nextRan).toBe(false);
  });

  it('refuses a hook without a command when the pipeline is built', () => {
    expect(() => hookChecker({})).toThrow(/Invalid option "command" of the hook checker/);
    expect(() => hookChecker({ command: 'x', args: [] })).toThrow(/Invalid option "args"/);
  });
});

describe('parsing a hook answer', () => {
  it('accepts the JSON alone or as the last line, with trailing whitespace', () => {
    expect(parseHookAnswer('{"completed":true,"feedback":"ok"}\n\n')).toEqual({ ok: true, verdict: { completed: true, feedback: 'ok' } });
    expect(parseHookAnswer('checking…\n{"completed":false,"feedback":"no"}\n')).toEqual({ ok: true, verdict: { completed: false, feedback: 'no' } });
    expect(parseHookAnswer('{"completed":true}')).toEqual({ ok: true, verdict: { completed: true, feedback: '' } });
    expect(parseHookAnswer('{"completed":"true"}').ok).toBe(false);
    expect(parseHookAnswer('[true]').ok).toBe(false);
    expect(parseHookAnswer('{"completed":true,"feedback":3}').ok).toBe(false);
  });

  it('never throws, and accepts only an object with a boolean completed (fuzzed)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.record({ completed: fc.anything(), feedback: fc.anything() }).map((v) => JSON.stringify(v) ?? ''),
        ),
        (text) => {
          const answer = parseHookAnswer(text);
          if (answer.ok) {
            expect(typeof answer.verdict.completed).toBe('boolean');
            expect(typeof answer.verdict.feedback).toBe('string');
          } else expect(answer.problem.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
