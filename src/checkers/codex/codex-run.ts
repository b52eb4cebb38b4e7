/**
 * One `codex exec --json` run: its JSONL events read as they come (bounded lines; a bad line is a
 * WARN, never the end of the run) into a CodexTurn, the process under ccc's child-process rules
 * (its whole group killed on timeout or abort, nothing outlives ccc).
 */
import { PassThrough } from 'node:stream';
import type { CheckerLogger } from '../types.js';
import { readFrames } from '../../frames/frame-lines.js';
import { childRunner, type ChildRunner, type RunResult } from '../../process/child-process.js';
import { codexEventReader, type CodexTurn } from './codex-events.js';

export interface CodexRunOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  signal: AbortSignal;
  logger: CheckerLogger;
  runner?: ChildRunner;
}

export async function runCodex(options: CodexRunOptions): Promise<{ run: RunResult; turn: CodexTurn }> {
  const reader = codexEventReader();
  const stdout = new PassThrough();
  const parsed = new Promise<void>((resolve) => {
    readFrames(
      stdout,
      { logger: options.logger, source: 'codex stdout', debugLines: true },
      {
        frame: (event) => reader.onEvent(event),
        end: resolve,
        error: (error: Error) => {
          options.logger.error('Reading codex output failed', { error: error.message });
          resolve();
        },
      },
    );
  });
  options.logger.debug('Running codex', { command: options.command, args: options.args, cwd: options.cwd });
  const run = await (options.runner ?? childRunner).run({
    command: options.command,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin,
    signal: options.signal,
    onStdout: (chunk) => stdout.write(chunk),
  });
  stdout.end();
  await parsed;
  return { run, turn: reader.turn() };
}
