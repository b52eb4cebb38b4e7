/**
 * Where each session's transcript reading stopped, so that a stop reads only what claude wrote
 * since the last one (docs/design/stop-path.md, "What a stop reads"). In memory for a ccc that runs the
 * whole session (interactive, headless, kanban): the interactive tail's reader is the one its
 * stops read on. In the session state for the standalone hook, a new process at every stop.
 */
import { parseTranscriptCursor } from '../frames/transcript-cursor.js';
import { TranscriptReader } from '../frames/transcript-reader.js';
import { readSessionState, updateSessionState } from '../state/session-state.js';
import type { CheckerLogger } from '../checkers/types.js';

export interface TranscriptReadings {
  /** The reader of `sessionId`'s transcript at `file`, where its last reading stopped. */
  open(sessionId: string, file: string): Promise<TranscriptReader>;
  /** A fresh reading of `file` from its start, which the session's stops then read on (the interactive tail's). */
  follow(sessionId: string, file: string): TranscriptReader;
  /** Records where `reader` stands, for the session's next stop. */
  keep(sessionId: string, reader: TranscriptReader): Promise<void>;
}

/** The readings of this process's sessions, in memory. */
export class InMemoryReadings implements TranscriptReadings {
  private readonly readers = new Map<string, TranscriptReader>();

  constructor(protected readonly logger: CheckerLogger) {}

  open(sessionId: string, file: string): Promise<TranscriptReader> {
    return Promise.resolve(this.readers.get(key(sessionId, file)) ?? this.follow(sessionId, file));
  }

  follow(sessionId: string, file: string): TranscriptReader {
    return this.remember(sessionId, new TranscriptReader(file, { logger: this.logger }));
  }

  /** Nothing to do: the reader itself is what this process keeps. */
  keep(_sessionId: string, _reader: TranscriptReader): Promise<void> {
    return Promise.resolve();
  }

  protected known(sessionId: string, file: string): TranscriptReader | undefined {
    return this.readers.get(key(sessionId, file));
  }

  protected remember(sessionId: string, reader: TranscriptReader): TranscriptReader {
    this.readers.set(key(sessionId, reader.file), reader);
    return reader;
  }
}

/**
 * The standalone hook's: a session's reading starts from the cursor its last stop kept in the
 * session state (`transcript_cursor`), and the stop keeps the new one there.
 */
export class SessionStateReadings extends InMemoryReadings {
  constructor(
    private readonly configDir: string,
    logger: CheckerLogger,
    private readonly maxIterations: number,
  ) {
    super(logger);
  }

  override async open(sessionId: string, file: string): Promise<TranscriptReader> {
    const known = this.known(sessionId, file);
    if (known) return known;
    const state = await readSessionState(this.configDir, sessionId, { logger: this.logger });
    const cursor = parseTranscriptCursor(state?.transcript_cursor);
    return this.remember(sessionId, new TranscriptReader(file, { logger: this.logger, ...(cursor?.path === file ? { from: cursor } : {}) }));
  }

  override async keep(sessionId: string, reader: TranscriptReader): Promise<void> {
    const cursor = reader.cursor();
    await updateSessionState(this.configDir, sessionId, (s) => ({ ...s, transcript_cursor: cursor }), {
      logger: this.logger,
      maxIterations: this.maxIterations,
    });
  }
}

function key(sessionId: string, file: string): string {
  return `${sessionId}\0${file}`;
}
