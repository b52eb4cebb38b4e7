/**
 * One `codex exec --json` run: its JSONL events read as they come (bounded lines; a bad line is a
 * WARN, never the end of the run) into a CodexTurn, the process under ccc's child-process rules
 * (its whole group killed on timeout or abort, nothing outlives ccc).
 */
import type { CheckerLogger } from '../types.js';
import { runReadingFrames } from '../../frames/child-frames.js';
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
  const run = await runReadingFrames(
    options.runner ?? childRunner,
    { command: options.command, args: options.args, cwd: options.cwd, env: options.env, stdin: options.stdin, signal: options.signal },
    { name: 'codex', logger: options.logger, onFrame: (event) => reader.onEvent(event) },
  );
  return { run, turn: reader.turn() };
}
