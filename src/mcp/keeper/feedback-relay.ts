/**
 * The web page lives in the Keeper (so it outlives Worker restarts), but `collect_feedback`
 * runs in a Worker: this relay shows the questions a Worker opens on the board, routes the answers
 * back to that same Worker, and withdraws a dead Worker's questions with it.
 */
import type { FeedbackBoard } from '../feedback/board.js';
import type { FeedbackMessage, WorkerConnection } from './worker-connection.js';

export function createFeedbackRelay(board: FeedbackBoard) {
  const open = new Map<WorkerConnection, Map<string, () => void>>();
  return {
    handle(conn: WorkerConnection, message: FeedbackMessage) {
      const mine = open.get(conn) ?? new Map<string, () => void>();
      open.set(conn, mine);
      if (message.type === 'feedback-open') {
        const withdraw = board.open({ id: message.questionId, question: message.question }, (answer) => {
          mine.delete(message.questionId);
          conn.answerFeedback(message.questionId, answer);
        });
        mine.set(message.questionId, withdraw);
      } else {
        mine.get(message.questionId)?.();
        mine.delete(message.questionId);
      }
    },
    /** A Worker is gone: its questions leave the page with it. */
    forget(conn: WorkerConnection) {
      for (const withdraw of open.get(conn)?.values() ?? []) withdraw();
      open.delete(conn);
    },
  };
}

export type FeedbackRelay = ReturnType<typeof createFeedbackRelay>;
