/**
 * What a stop reads from the agent's transcript before it is reviewed: the user's prompts, the
 * agent's last text, where the transcript ends and the /goal, once claude has flushed the turn
 * the stop ends (its hook may fire before that line is written).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckerLogger } from '../checkers/types.js';
import { readTranscript, type TranscriptSummary as Transcript } from '../frames/transcript.js';
import { oncePerLine } from '../frames/frame-lines.js';
import { readSessionState } from '../state/session-state.js';
import type { StopEvent } from '../stop/stop-event.js';
import { STOP_HOOK_BLOCK_CAP_ENV } from './agent-env.js';
import { errorText } from '../errors.js';

/** What reading a stop needs of `reviewStop`'s dependencies. */
export interface StopReadDeps {
  configDir: string;
  logger: CheckerLogger;
  env: NodeJS.ProcessEnv;
  userPrompts?: readonly string[];
  signal?: AbortSignal;
  blockCap?: number;
}

const TRANSCRIPT_RETRIES = 80;
const TRANSCRIPT_RETRY_MS = 25;
const FLUSH_WAIT_MS = 400;

/** What a stop reads from the transcript; `atHookStop` when read at a hook's stop (other Stop hooks run beside it). */
export interface StopContext extends Pick<Transcript, 'userPrompts' | 'lastAssistantText' | 'frames' | 'goal' | 'stopsSentBack'> {
  atHookStop: boolean;
}

const NO_CONTEXT: StopContext = { userPrompts: [], lastAssistantText: '', frames: 0, stopsSentBack: 0, atHookStop: false };

export async function readContext(stop: StopEvent, deps: StopReadDeps): Promise<StopContext> {
  if (!stop.transcriptPath) return NO_CONTEXT;
  try {
    // The caller knows the turn is over and written (headless: its `claude -p` has exited): one
    // read records where the transcript ends, so that a later stop of this session, in whatever
    // mode, can tell its own turn from the history before it; the goal comes from it too.
    if (deps.userPrompts && stop.lastAssistantMessage !== undefined)
      return stopContext(await readTranscript(stop.transcriptPath, { logger: deps.logger }), false);
    return stopContext(await readFlushedTurn(stop, stop.transcriptPath, deps), true);
  } catch (error) {
    deps.logger.warn(`cannot read the transcript: ${errorText(error)}`, { session_id: stop.sessionId, transcript_path: stop.transcriptPath });
    return NO_CONTEXT;
  }
}

function stopContext(t: Transcript, atHookStop: boolean): StopContext {
  const { userPrompts, lastAssistantText, frames, goal, stopsSentBack } = t;
  return { userPrompts, lastAssistantText, frames, stopsSentBack, atHookStop, ...(goal ? { goal } : {}) };
}

/**
 * The transcript as it is once it holds this stop's turn. Claude Code may not have flushed the
 * turn when the hook fires (seen on a loaded machine, and on most stops with a hook that asks
 * within a few ms). Read too early, the transcript ends with the previous turn: its prompts are
 * the previous task's, and the new task would be counted as that task's next round. Every stop
 * follows at least one new assistant line, so the turn is there once an assistant line lies past
 * the `transcript_frames` recorded at the session's last review. That mark is recorded by every
 * mode (headless too), so a resumed session's history, earlier reviews included, is never taken
 * for the new turn. A stop with no new assistant line at all (the same stop twice) waits
 * FLUSH_WAIT_MS at most.
 */
async function readFlushedTurn(stop: StopEvent, file: string, deps: StopReadDeps): Promise<Transcript> {
  const seen = (await readSessionState(deps.configDir, stop.sessionId))?.transcript_frames ?? 0;
  const started = Date.now();
  const caughtUp = (t: Transcript) => t.userPrompts.length > 0 && (t.framesToLastAssistant > seen || Date.now() - started >= FLUSH_WAIT_MS);
  const logger = oncePerLine(deps.logger);
  let t = await readTranscript(file, { logger });
  for (let attempt = 0; attempt < TRANSCRIPT_RETRIES && !caughtUp(t); attempt++) {
    await sleep(TRANSCRIPT_RETRY_MS);
    t = await readTranscript(file, { logger });
  }
  return t;
}

export function goalStopOptions(stop: StopEvent, deps: StopReadDeps) {
  const fromEnv = Number(deps.env[STOP_HOOK_BLOCK_CAP_ENV]);
  const logger = oncePerLine(deps.logger);
  return {
    reread: () => readTranscript(stop.transcriptPath!, { logger }),
    blockCap: deps.blockCap ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 8),
    signal: deps.signal,
  };
}
