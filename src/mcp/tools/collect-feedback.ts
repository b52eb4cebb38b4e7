/**
 * `collect_feedback`: puts a question to the human on every available channel (the web page,
 * the terminal when one is ours) and returns the first answer. A bounded wait: when nobody
 * answers within `timeout_seconds` the result is an explicit `answered: false` with the reason
 * "no answer: the user is away", not an error, so the agent carries on instead of asking again.
 * Cancelling the call withdraws the question everywhere.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FeedbackChannel } from '../feedback/channel.js';
import type { FeedbackStore } from '../storage/mcp-store.js';
import { ToolInputError, type ToolContext } from './tool-runner.js';

export const NO_ANSWER_REASON = 'no answer: the user is away';
const DEFAULT_TIMEOUT_SECONDS = 300;
/** Progress is reported this often so clients that reset their request timeout on progress keep waiting. */
const PROGRESS_EVERY_MS = 10_000;

export type CollectFeedbackResult =
  | { answered: true; answer: string; via: FeedbackChannel['name']; questionId: string }
  | { answered: false; reason: string; waitedSeconds: number; questionId: string };

export interface CollectFeedbackDeps {
  channels: FeedbackChannel[];
  store: FeedbackStore;
  newId?: () => string;
  /** How often progress is reported while waiting (default every 10 s). */
  progressEveryMs?: number;
}

const argsSchema = z.object({
  question: z.string().trim().min(1, 'question must not be empty').max(20_000, 'question must be at most 20000 characters'),
  timeout_seconds: z.number().min(1).max(3600).optional(),
});

function parseCollectFeedbackArgs(args: unknown): { question: string; timeoutSeconds: number } {
  const parsed = argsSchema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    throw new ToolInputError(`${issues}. Expected {"question": string, "timeout_seconds"?: number from 1 to 3600}.`);
  }
  return { question: parsed.data.question, timeoutSeconds: parsed.data.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS };
}

export async function collectFeedback(args: unknown, deps: CollectFeedbackDeps, context: ToolContext): Promise<CollectFeedbackResult> {
  const { question, timeoutSeconds } = parseCollectFeedbackArgs(args);
  const id = (deps.newId ?? randomUUID)();
  const startedAt = Date.now();
  deps.store.recordQuestion({ id, question, askedAt: new Date(startedAt).toISOString(), timeoutSeconds });

  const done = new AbortController();
  const onCancel = () => done.abort();
  context.signal.addEventListener('abort', onCancel, { once: true });
  const progress = setInterval(() => {
    const waited = Math.round((Date.now() - startedAt) / 1000);
    context.progress({ progress: waited, total: timeoutSeconds, message: `waiting for the user's answer (${waited}s of ${timeoutSeconds}s)` });
  }, deps.progressEveryMs ?? PROGRESS_EVERY_MS);
  try {
    const answers = deps.channels.map((channel) =>
      channel.ask({ id, question }, done.signal).then((answer) => (answer === undefined ? never() : { answer, via: channel.name })),
    );
    const timeout = new Promise<undefined>((resolve) => {
      const timer = setTimeout(resolve, timeoutSeconds * 1000);
      done.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    const first = await Promise.race([...answers, timeout]);
    const at = new Date().toISOString();
    if (context.signal.aborted) {
      deps.store.recordOutcome(id, { outcome: 'cancelled', at });
      return { answered: false, reason: 'cancelled by the client', waitedSeconds: seconds(startedAt), questionId: id };
    }
    if (first) {
      deps.store.recordOutcome(id, { outcome: 'answered', answer: first.answer, via: first.via, at });
      return { answered: true, answer: first.answer, via: first.via, questionId: id };
    }
    deps.store.recordOutcome(id, { outcome: 'no_answer', at });
    return { answered: false, reason: NO_ANSWER_REASON, waitedSeconds: seconds(startedAt), questionId: id };
  } finally {
    clearInterval(progress);
    context.signal.removeEventListener('abort', onCancel);
    done.abort(); // withdraws the question from every channel that did not answer
  }
}

function never(): Promise<never> {
  return new Promise(() => {});
}

function seconds(since: number): number {
  return Math.round((Date.now() - since) / 100) / 10;
}
