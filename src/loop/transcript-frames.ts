/**
 * In interactive mode the structured frames come from the session transcript, which holds the
 * same message shapes as stream-json. The tail starts once the session id is known and follows
 * the file as claude appends to it.
 */
import { transcriptPathFor } from '../frames/transcript.js';
import { tailTranscript } from '../frames/transcript-tail.js';
import type { SupervisorSession } from './supervisor-session.js';

export function tailSessionTranscript(session: SupervisorSession, sessionId: () => string | undefined): () => void {
  const controller = new AbortController();
  const id = sessionId();
  if (!id) return () => {};
  const subscription = tailTranscript(transcriptPathFor(session.env, session.cwd, id), controller.signal, { logger: session.logger }).subscribe({
    next: (frame) => session.onFrame(frame),
    error: (error: Error) => session.logger.warn(`transcript tail stopped: ${error.message}`),
  });
  return () => {
    controller.abort();
    subscription.unsubscribe();
  };
}
