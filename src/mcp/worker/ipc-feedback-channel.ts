/**
 * The web-page channel as seen from the Worker: the page lives in the Keeper (it outlives
 * Worker restarts), so the Worker opens and withdraws questions over IPC and receives the answers
 * the Keeper relays.
 */
import { askUntilAborted, type FeedbackChannel } from '../feedback/channel.js';
import type { WorkerMessage } from '../ipc/protocol.js';

export interface IpcFeedbackChannel extends FeedbackChannel {
  /** Called with an answer the Keeper relayed. */
  deliver(questionId: string, answer: string): void;
}

export function createIpcFeedbackChannel(send: (message: WorkerMessage) => void): IpcFeedbackChannel {
  const waiting = new Map<string, (answer: string) => void>();
  return {
    name: 'web',
    ask: (question, signal) =>
      askUntilAborted(signal, (answer) => {
        waiting.set(question.id, (text) => {
          waiting.delete(question.id);
          answer(text);
        });
        send({ type: 'feedback-open', questionId: question.id, question: question.question });
        return () => {
          waiting.delete(question.id);
          send({ type: 'feedback-close', questionId: question.id });
        };
      }),
    deliver(questionId, answer) {
      waiting.get(questionId)?.(answer);
    },
  };
}
