/**
 * One `claude -p … --output-format stream-json --verbose` run, as the reviewer (docs/design/reviewer.md)
 * and headless mode use it. The caller gives the complete argument list; this adds nothing.
 * Stdout goes through the bounded line splitter and the tolerant frame parser: a bad line is a
 * WARN, never the end of the run. Frames are counted and handed to `onFrame`, not kept, so a
 * long run costs constant memory.
 */
import type { CheckerLogger } from '../log/checker-logger.js';
import { CccError, errorText } from '../errors.js';
import { frameSessionId, type Frame } from '../frames/frame.js';
import { runReadingFrames } from '../frames/child-frames.js';
import { childRunner, type ChildRunner } from '../process/child-process.js';
import { addUsage, NO_USAGE, usageOfResult, type Usage } from './usage.js';

export interface ClaudePrintOptions {
  command: string;
  /** The full argument list, `-p` and `--output-format stream-json --verbose` included. */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The prompt, written to stdin (safer than a positional argument: no option can swallow it). */
  stdin?: string;
  /** Aborting kills claude's whole process tree. */
  signal?: AbortSignal;
  /** Aborting SIGKILLs it at once: claude given SIGTERM still sends the request it was about to (child-process.ts). */
  halt?: AbortSignal;
  timeoutMs?: number;
  logger?: CheckerLogger;
  /** Every frame, in order, as it arrives. A throwing callback is logged and ignored. */
  onFrame?: (frame: Frame) => void;
  runner?: ChildRunner;
  maxLineBytes?: number;
}

export interface ClaudePrintResult {
  exitCode: number | null;
  /** The signal that ended claude (a kill at timeout or abort), else null. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stderrTail: string;
  /** The session of this run (for a `--fork-session` review: the fork's id, not the parent's). */
  sessionId?: string;
  /** The last `result` frame. */
  resultFrame?: Frame;
  /** Its `result` text. */
  resultText?: string;
  /** Its `structured_output` (`--json-schema`), when claude produced one. */
  structuredOutput?: unknown;
  /** Sum of the runs' own cost over all result frames (USD; `runCost` in usage.ts). */
  costUsd: number;
  /** Tokens and cost summed over all result frames. */
  usage: Usage;
  /** Frames parsed. */
  frames: number;
  /** Requests claude retried after an API error (its `system`/`api_retry` frames). */
  apiRetries: number;
  /** claude could not be started; see claudeNotFoundError. */
  spawnError?: Error;
  durationMs: number;
}

const silentLogger: CheckerLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export async function runClaudePrint(options: ClaudePrintOptions): Promise<ClaudePrintResult> {
  const logger = options.logger ?? silentLogger;
  const runner = options.runner ?? childRunner;
  const seen = collectFrames(logger, options.onFrame);
  const run = await runReadingFrames(
    runner,
    {
      command: options.command,
      args: options.args,
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin,
      signal: options.signal,
      ...(options.halt ? { halt: options.halt } : {}),
      timeoutMs: options.timeoutMs,
    },
    { name: 'claude', logger, maxLineBytes: options.maxLineBytes, onFrame: seen.add },
  );
  const { resultFrame } = seen;
  return {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    aborted: run.aborted,
    stderrTail: run.stderrTail,
    ...(seen.sessionId === undefined ? {} : { sessionId: seen.sessionId }),
    ...(resultFrame === undefined ? {} : { resultFrame }),
    ...(typeof resultFrame?.result === 'string' ? { resultText: resultFrame.result } : {}),
    ...(resultFrame?.structured_output === undefined ? {} : { structuredOutput: resultFrame.structured_output }),
    costUsd: seen.usage.cost_usd,
    usage: seen.usage,
    frames: seen.count,
    apiRetries: seen.apiRetries,
    ...(run.spawnError === undefined ? {} : { spawnError: run.spawnError }),
    durationMs: run.durationMs,
  };
}

function collectFrames(logger: CheckerLogger, onFrame: ((frame: Frame) => void) | undefined) {
  const seen = {
    count: 0,
    usage: NO_USAGE,
    apiRetries: 0,
    sessionId: undefined as string | undefined,
    resultFrame: undefined as Frame | undefined,
    add: (frame: Frame) => {
      seen.count += 1;
      seen.sessionId ??= frameSessionId(frame);
      if (frame.type === 'system' && frame.subtype === 'api_retry') seen.apiRetries += 1;
      if (frame.type === 'result') {
        seen.resultFrame = frame;
        seen.usage = addUsage(seen.usage, usageOfResult(frame));
      }
      try {
        onFrame?.(frame);
      } catch (error) {
        logger.error('A frame listener failed', { error: errorText(error), frame_type: frame.type });
      }
    },
  };
  return seen;
}

/** The CccError for a claude that could not be started (exit 2: configuration). */
export function claudeNotFoundError(command: string, spawnError: Error): CccError {
  const code = (spawnError as NodeJS.ErrnoException).code;
  if (code !== 'ENOENT' && code !== 'EACCES') {
    return new CccError('INTERNAL', `Could not start claude (${command}): ${spawnError.message}`, { cause: spawnError, data: { command } });
  }
  return new CccError(
    'CLAUDE_NOT_FOUND',
    `Could not run claude: \`${command}\` ${code === 'EACCES' ? 'is not executable' : 'was not found'}. ` +
      'Install Claude Code (npm install -g @anthropic-ai/claude-code), or point `claude.command` in the ccc config (or CCC_CLAUDE) at it.',
    { cause: spawnError, data: { command } },
  );
}
