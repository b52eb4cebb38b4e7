/**
 * What a stop reads from the agent's transcript before it is reviewed: the user's prompts, the
 * agent's last text, where the transcript ends and the /goal, once claude has flushed the turn
 * the stop ends (its hook may fire before that line is written). The transcript is read on from
 * where the session's last stop left it (transcript-readings.ts), so a stop costs what is new.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckerLogger } from '../checkers/types.js';
import type { TranscriptReader } from '../frames/transcript-reader.js';
import type { TranscriptSummary as Transcript } from '../frames/transcript.js';
import { readSessionState } from '../state/session-state.js';
import type { StopEvent } from '../stop/stop-event.js';
import { STOP_HOOK_BLOCK_CAP_ENV } from './agent-env.js';
import { InMemoryReadings, type TranscriptReadings } from './transcript-readings.js';
import { errorText } from '../errors.js';

/** What reading a stop needs of `reviewStop`'s dependencies. */
export interface StopReadDeps {
  configDir: string;
  logger: CheckerLogger;
  env: NodeJS.ProcessEnv;
  userPrompts?: readonly string[];
  signal?: AbortSignal;
  blockCap?: number;
  /** Where the session's transcript reading stopped. Without it the stop reads the whole transcript. */
  transcripts?: TranscriptReadings;
}

const TRANSCRIPT_RETRIES = 80;
const TRANSCRIPT_RETRY_MS = 25;
const FLUSH_WAIT_MS = 400;

/** What a stop reads from the transcript; `atHookStop` when read at a hook's stop (other Stop hooks run beside it). */
export interface StopContext extends Pick<Transcript, 'userPrompts' | 'lastAssistantText' | 'frames' | 'goal' | 'stopsSentBack'> {
  atHookStop: boolean;
  /** The transcript read on from there (the /goal evaluator writes its answer while the stop waits). */
  readOn(): Promise<Pick<Transcript, 'goal'>>;
}

const NO_CONTEXT: StopContext = {
  userPrompts: [],
  lastAssistantText: '',
  frames: 0,
  stopsSentBack: 0,
  atHookStop: false,
  readOn: () => Promise.resolve({}),
};

export async function readContext(stop: StopEvent, deps: StopReadDeps): Promise<StopContext> {
  if (!stop.transcriptPath) return NO_CONTEXT;
  try {
    const readings = deps.transcripts ?? new InMemoryReadings(deps.logger);
    const reader = await readings.open(stop.sessionId, stop.transcriptPath);
    // The caller knows the turn is over and written (headless: its `claude -p` has exited): one
    // reading records where the transcript ends, so that a later stop of this session, in whatever
    // mode, can tell its own turn from the history before it; the goal comes from it too.
    const atHookStop = !(deps.userPrompts && stop.lastAssistantMessage !== undefined);
    const transcript = atHookStop ? await readFlushedTurn(stop, reader, deps) : await reader.readOn();
    await keepReading(readings, stop, reader, deps.logger);
    return stopContext(transcript, atHookStop, reader);
  } catch (error) {
    deps.logger.warn(`cannot read the transcript: ${errorText(error)}`, { session_id: stop.sessionId, transcript_path: stop.transcriptPath });
    return NO_CONTEXT;
  }
}

function stopContext(t: Transcript, atHookStop: boolean, reader: TranscriptReader): StopContext {
  const { userPrompts, lastAssistantText, frames, goal, stopsSentBack } = t;
  return { userPrompts, lastAssistantText, frames, stopsSentBack, atHookStop, readOn: () => reader.readOn(), ...(goal ? { goal } : {}) };
}

/** Where the reading stopped is kept for the next stop; when it cannot be, that stop reads more, and this one goes on. */
async function keepReading(readings: TranscriptReadings, stop: StopEvent, reader: TranscriptReader, logger: CheckerLogger): Promise<void> {
  try {
    await readings.keep(stop.sessionId, reader);
  } catch (error) {
    logger.warn(`cannot keep where the transcript was read to; the next stop reads it from the start: ${errorText(error)}`, {
      session_id: stop.sessionId,
    });
  }
}

/**
 * The transcript as it is once it holds this stop's turn. Claude Code may not have flushed the
 * turn when the hook fires (seen on a loaded machine, and on most stops with a hook that asks
 * within a few ms). Read too early, the transcript ends with the previous turn: its prompts are
 * the previous task's, and the new task would be counted as that task's next round; the /goal's
 * status would be the previous stop's (a goal met at this stop taken for the "not met" of the one
 * before, and the stop let through unreviewed). Every stop follows at least one new assistant
 * line, so the turn is there once an assistant line lies past the `transcript_frames` recorded at
 * the session's last stop (a review's, or one the /goal evaluator sent back), and, when the hook's
 * input names the turn's last assistant message, the transcript's last assistant text is that
 * message. The mark is recorded by every mode (headless too), so a resumed session's history,
 * earlier reviews included, is never taken for the new turn. A stop whose message is already the
 * transcript's last (the same stop twice) waits FLUSH_WAIT_MS at most; one whose message is not
 * there yet waits for it as long as the retries last. Each look reads only the bytes written since
 * the one before; in the interactive mode the reader is the live tail's, so the look also brings
 * the frame window up to date.
 */
async function readFlushedTurn(stop: StopEvent, reader: TranscriptReader, deps: StopReadDeps): Promise<Transcript> {
  const seen = (await readSessionState(deps.configDir, stop.sessionId))?.transcript_frames ?? 0;
  const started = Date.now();
  const message = comparable(stop.lastAssistantMessage ?? '');
  const isThisTurn = (t: Transcript) => message === '' || comparable(t.lastAssistantText) === message;
  const caughtUp = (t: Transcript) => t.userPrompts.length > 0 && isThisTurn(t) && (t.framesToLastAssistant > seen || Date.now() - started >= FLUSH_WAIT_MS);
  let t = await reader.readOn();
  for (let attempt = 0; attempt < TRANSCRIPT_RETRIES && !caughtUp(t); attempt++) {
    await sleep(TRANSCRIPT_RETRY_MS);
    t = await reader.readOn();
  }
  return t;
}

/** A message as the hook input and the transcript may each lay it out (text blocks joined with or without a newline). */
function comparable(text: string): string {
  return text.replace(/\s+/g, '');
}

export function goalStopOptions(read: StopContext, deps: StopReadDeps) {
  const fromEnv = Number(deps.env[STOP_HOOK_BLOCK_CAP_ENV]);
  return {
    reread: () => read.readOn(),
    blockCap: deps.blockCap ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 8),
    signal: deps.signal,
  };
}
