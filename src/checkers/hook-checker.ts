/**
 * The `hook` checker: an external command in any language. It gets the check context as one JSON
 * object on stdin and answers `{"completed": bool, "feedback": string}` on stdout. The command
 * line is the user's own config and runs through the shell; the context travels ONLY on stdin,
 * never interpolated into the command. A hook that exits non-zero, prints something else, or runs
 * past its time limit is a failure of the checker (CHECKER_FAILED / CHECKER_TIMEOUT with its exit
 * code and stderr tail in `data`), and its whole process tree is killed: it never hangs a session.
 */
import { CccError } from '../errors.js';
import { childRunner, type ChildRunner, type RunResult } from '../process/child-process.js';
import { commonOptions, nonBlank, parseCheckerOptions } from './checker-options.js';
import { childTimeoutMs, tailLines } from './shell-command.js';
import type { CheckContext, Checker, Verdict } from './types.js';
import { readVerdictShape } from './verdict-shape.js';
import { clip } from '../value-text.js';
import { childEndText } from '../process/child-end.js';

/** What a hook reads on stdin: the plain data of the context, no functions, no frames. */
export type HookInput = Pick<
  CheckContext,
  'sessionId' | 'transcriptPath' | 'cwd' | 'userPrompts' | 'lastAssistantMessage' | 'iteration' | 'maxIterations' | 'completionMarker' | 'timeoutSeconds'
>;

/** In the order the keys are checked: the first problem is the error. */
const hookShape = { ...commonOptions, command: nonBlank('the command line of the hook, a non-empty string') };

export function hookChecker(raw: Record<string, unknown>, deps: { runner?: ChildRunner } = {}): Checker {
  const { command, name } = parseCheckerOptions('hook', hookShape, raw, ['command', 'name', 'timeout_seconds']);
  const runner = deps.runner ?? childRunner;
  return {
    name: name ?? 'hook',
    async check(ctx, signal) {
      const timeoutMs = childTimeoutMs(ctx.timeoutSeconds, Date.now());
      const result = await runner.run({
        command,
        args: [],
        shell: true,
        cwd: ctx.cwd,
        env: ctx.env,
        stdin: JSON.stringify(hookInput(ctx)),
        signal,
        timeoutMs,
        maxStdoutBytes: 256 * 1024,
      });
      return verdictOf(command, result, timeoutMs);
    },
  };
}

export function hookInput(ctx: CheckContext): HookInput {
  return {
    sessionId: ctx.sessionId,
    ...(ctx.transcriptPath === undefined ? {} : { transcriptPath: ctx.transcriptPath }),
    cwd: ctx.cwd,
    userPrompts: [...ctx.userPrompts],
    lastAssistantMessage: ctx.lastAssistantMessage,
    iteration: ctx.iteration,
    maxIterations: ctx.maxIterations,
    completionMarker: ctx.completionMarker,
    timeoutSeconds: ctx.timeoutSeconds,
  };
}

function verdictOf(command: string, result: RunResult, timeoutMs: number): Verdict {
  const data = { exit_code: result.exitCode, stderr: tailLines(result.stderrTail), stdout: tailLines(result.stdout ?? '', 20) };
  const fail = (code: 'CHECKER_FAILED' | 'CHECKER_TIMEOUT', problem: string, cause?: unknown) =>
    new CccError(code, `hook \`${command}\` ${problem}${stderrNote(data.stderr)}`, { data, cause });
  if (result.spawnError) throw fail('CHECKER_FAILED', `could not start: ${result.spawnError.message}`, result.spawnError);
  if (result.timedOut) throw fail('CHECKER_TIMEOUT', `did not answer within ${Math.round(timeoutMs / 100) / 10}s and was killed`);
  if (result.aborted) throw fail('CHECKER_TIMEOUT', 'was stopped because the check was cancelled');
  if (result.exitCode !== 0) {
    throw fail('CHECKER_FAILED', childEndText(result));
  }
  const answer = parseHookAnswer(result.stdout ?? '');
  if (!answer.ok) throw fail('CHECKER_FAILED', `${answer.problem}; it must print {"completed": true|false, "feedback": "..."} on stdout`);
  return answer.verdict;
}

/**
 * The verdict on a hook's stdout: the whole output as JSON, or else its last non-empty line (a
 * script that logs a line before answering still works). `allow_stop` is accepted for `completed`,
 * and a missing `feedback` means an empty one.
 */
export function parseHookAnswer(stdout: string): { ok: true; verdict: Verdict } | { ok: false; problem: string } {
  const text = stdout.trim();
  if (text === '') return { ok: false, problem: 'printed nothing' };
  const lastLine = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .pop()!;
  const parsed = tryJson(text) ?? tryJson(lastLine);
  if (parsed === undefined) return { ok: false, problem: `printed something that is not JSON: ${preview(text)}` };
  const shape = readVerdictShape(parsed.value);
  if (shape.ok) return shape;
  const problem = {
    'not-object': 'printed JSON that is not an object',
    'no-completed': 'answered without a boolean "completed"',
    'feedback-not-string': 'answered a "feedback" that is not a string',
  }[shape.problem];
  return { ok: false, problem: `${problem}: ${preview(text)}` };
}

function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function preview(text: string): string {
  return JSON.stringify(clip(text.replace(/\s+/g, ' '), 201));
}

function stderrNote(stderr: string): string {
  const last = stderr.trim().split('\n').pop();
  return last ? ` (stderr: ${last.slice(0, 300)})` : '';
}
