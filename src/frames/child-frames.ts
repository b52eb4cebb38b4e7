/**
 * A child whose stdout is JSONL frames (`claude -p --output-format stream-json`, `codex exec
 * --json`), run under the child-process rules with each frame handed on as it arrives.
 */
import { PassThrough } from 'node:stream';
import type { CheckerLogger } from '../log/checker-logger.js';
import type { ChildRunner, RunOptions, RunResult } from '../process/child-process.js';
import type { Frame } from './frame.js';
import { readFrames } from './frame-lines.js';

export interface ChildFramesOptions {
  /** What runs, as logs name it: `claude`, `codex`. */
  name: string;
  logger: CheckerLogger;
  onFrame: (frame: Frame) => void;
  maxLineBytes?: number;
}

/** Runs the child; resolves with its result once it ended and every line it printed was read. */
export async function runReadingFrames(runner: ChildRunner, run: Omit<RunOptions, 'onStdout'>, options: ChildFramesOptions): Promise<RunResult> {
  const { name, logger } = options;
  const stdout = new PassThrough();
  const parsed = new Promise<void>((resolve) => {
    // Plain callbacks, not frames$: the standalone Stop hook reviews through here and loads no RxJS.
    readFrames(
      stdout,
      { logger, maxLineBytes: options.maxLineBytes, source: `${name} stdout`, debugLines: true },
      {
        frame: options.onFrame,
        end: resolve,
        // The PassThrough only errors if destroyed under us; whatever was parsed still counts.
        error: (error: Error) => {
          logger.error(`Reading ${name} output failed`, { error: error.message });
          resolve();
        },
      },
    );
  });
  logger.debug(`Running ${name}`, { command: run.command, args: run.args, cwd: run.cwd });
  const result = await runner.run({ ...run, onStdout: (chunk) => stdout.write(chunk) });
  stdout.end();
  await parsed;
  return result;
}
