/**
 * The web-page channel as seen from the Worker: the page lives in the Supervisor (it outlives
 * Worker restarts), so the Worker opens and withdraws questions over IPC and receives the answers
 * the Supervisor relays.
 */
import type { FeedbackChannel } from '../feedback/channel.js';
import type { WorkerMessage } from '../ipc/protocol.js';

export interface IpcFeedbackChannel extends FeedbackChannel {
  /** Called with an answer the Supervisor relayed. */
  deliver(questionId: string, answer: string): void;
}

export function createIpcFeedbackChannel(send: (message: WorkerMessage) => void): IpcFeedbackChannel {
  const waiting = new Map<string, (answer: string) => void>();
  return {
    name: 'web',
    ask(question, signal) {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve(undefined);
        const onAbort = () => {
          waiting.delete(question.id);
          send({ type: 'feedback-close', questionId: question.id });
          resolve(undefined);
        };
        waiting.set(question.id, (answer) => {
          waiting.delete(question.id);
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        });
        signal.addEventListener('abort', onAbort, { once: true });
        send({ type: 'feedback-open', questionId: question.id, question: question.question });
      });
    },
    deliver(questionId, answer) {
      waiting.get(questionId)?.(answer);
    },
  };
}
