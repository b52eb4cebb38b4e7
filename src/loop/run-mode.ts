/**
 * Interactive or headless, and the task, decided the way claude decides it, so that ccc does not
 * open a TUI where there is no one to use it:
 * - `-p` runs headless; its task is `-p`'s value, followed on a new line by whatever is piped on
 *   stdin (claude joins a prompt argument and piped stdin the same way);
 * - without `-p`, a stdin or a stdout that is not a terminal runs headless with stdin as the task
 *   (claude runs its print mode when stdout is not a terminal; ccc also does when stdin is piped,
 *   where claude would open its TUI with the piped text as the first prompt: ccc has no keyboard
 *   to hand that TUI, and a CI job that forgot `-p` must not hang);
 * - a headless run without a task fails at once with a message naming `-p`, as claude does.
 * Stdin that stays open without sending anything is waited for 3 s, claude's own figure.
 */
import { CccError } from '../errors.js';

const STDIN_WAIT_MS = 3000;

export interface RunModeInput {
  /** `-p`'s value: a string (possibly empty) when `-p` was given. */
  print?: string;
  json: boolean;
  stdinIsTTY: boolean;
  /** Opened only when the task may be on stdin: a terminal's stdin stays untouched for the TUI. */
  openStdin: () => NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderr: NodeJS.WritableStream;
  stdinWaitMs?: number;
}

export type RunMode = { mode: 'interactive' } | { mode: 'headless'; task: string };

const NO_TASK = 'a headless run needs a task: give it with -p "<task>" or on stdin (`echo "<task>" | ccc --supervisor`)';

export async function chooseRunMode(input: RunModeInput): Promise<RunMode> {
  const headless = input.print !== undefined || !input.stdinIsTTY || !input.stdoutIsTTY;
  if (!headless) {
    if (input.json) throw new CccError('USAGE', '--json needs a headless run: add -p "<task>" (or pipe the task on stdin). See `ccc --supervisor --help`.');
    return { mode: 'interactive' };
  }
  const piped = input.stdinIsTTY ? undefined : await readStdin(input.openStdin(), input.stdinWaitMs ?? STDIN_WAIT_MS);
  if (piped?.timedOut) {
    input.stderr.write(
      `ccc: no stdin data received in ${Math.round((input.stdinWaitMs ?? STDIN_WAIT_MS) / 1000)}s, proceeding without it (redirect stdin from /dev/null to skip the wait)\n`,
    );
  }
  const parts = [input.print, piped?.text].filter((part): part is string => part !== undefined && part !== '');
  const task = parts.join('\n');
  if (task.trim() === '') {
    const why =
      input.print === undefined && !input.stdinIsTTY
        ? piped?.timedOut
          ? 'stdin sent nothing'
          : 'stdin is empty'
        : input.print === undefined
          ? 'stdout is not a terminal'
          : 'the task is empty';
    throw new CccError('USAGE', `${why}: ${NO_TASK}.`);
  }
  return { mode: 'headless', task };
}

/** All of stdin as UTF-8; gives up (keeping nothing) when nothing at all arrives within `waitMs`. */
function readStdin(stream: NodeJS.ReadableStream, waitMs: number): Promise<{ text: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const done = (result: { text: string; timedOut: boolean }) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    const onEnd = () => done({ text: Buffer.concat(chunks).toString('utf8'), timedOut: false });
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(new CccError('USAGE', `cannot read the task from stdin: ${error.message}`, { cause: error }));
    };
    const timer = setTimeout(() => {
      done({ text: '', timedOut: true });
      // Nothing arrived and nothing will be read: let the process exit despite the open pipe.
      (stream as NodeJS.ReadStream).pause?.();
      (stream as { unref?(): void }).unref?.();
      (stream as { destroy?(): void }).destroy?.();
    }, waitMs);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}
