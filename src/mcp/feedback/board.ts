/**
 * The questions waiting for the human, as the web page shows them. Whoever asks (the Worker over
 * IPC, or `collect_feedback` in single-process mode) opens a question with a callback for the
 * answer and withdraws it when done; the page lists `pending()` and posts `answer()`.
 * A question is answered at most once; an answer to a withdrawn question is refused.
 */
interface PendingQuestion {
  id: string;
  question: string;
  askedAt: string;
}

export interface FeedbackBoard {
  /** Shows the question until answered or withdrawn. Returns the withdraw function. */
  open(question: { id: string; question: string }, onAnswer: (answer: string) => void): () => void;
  pending(): PendingQuestion[];
  /** False when no such question is open (already answered, withdrawn, or unknown). */
  answer(id: string, answer: string): boolean;
}

export function createFeedbackBoard(clock: { now(): number } = Date): FeedbackBoard {
  const open = new Map<string, PendingQuestion & { onAnswer: (answer: string) => void }>();
  return {
    open(question, onAnswer) {
      open.set(question.id, { ...question, askedAt: new Date(clock.now()).toISOString(), onAnswer });
      return () => {
        open.delete(question.id);
      };
    },
    pending: () => [...open.values()].map(({ id, question, askedAt }) => ({ id, question, askedAt })),
    answer(id, answer) {
      const entry = open.get(id);
      if (!entry) return false;
      open.delete(id);
      entry.onAnswer(answer);
      return true;
    },
  };
}
