/**
 * A place where a question can be put to the human: the web page, or the terminal. `ask`
 * resolves with the answer, or with undefined once `signal` aborts (the question is withdrawn
 * from that place; nothing is left behind).
 */
import type { FeedbackBoard } from './board.js';

export interface FeedbackQuestion {
  id: string;
  question: string;
}

export interface FeedbackChannel {
  readonly name: 'web' | 'terminal';
  ask(question: FeedbackQuestion, signal: AbortSignal): Promise<string | undefined>;
}

/** The web page channel over a board living in this process (single-process mode, and the Keeper). */
export function boardChannel(board: FeedbackBoard): FeedbackChannel {
  return {
    name: 'web',
    ask: (question, signal) => askUntilAborted(signal, (answer) => board.open(question, answer)),
  };
}

/**
 * Puts a question somewhere: `open` shows it and calls `answer` when the human answers; the
 * function it returns withdraws it. Resolves with the answer, or undefined once `signal` aborts
 * (and then the question is withdrawn).
 */
export function askUntilAborted(signal: AbortSignal, open: (answer: (text: string) => void) => () => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const onAbort = () => {
      withdraw();
      resolve(undefined);
    };
    const withdraw = open((text) => {
      signal.removeEventListener('abort', onAbort);
      resolve(text);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
