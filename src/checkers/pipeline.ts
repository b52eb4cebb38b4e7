/**
 * Runs checkers in configured order; the first "not completed" ends the round. The reviewers among
 * them (`claude`, `codex`) decide together by `agreement` (agreement.ts): `all` is that same rule,
 * `one` asks each reviewer in turn until one finds the work complete. Each checker runs
 * under its own time limit, raced against abort so that a checker that ignores its signal still
 * cannot hang the session. A checker that throws, times out or answers the wrong shape fails the
 * round with a CccError that names it.
 */
import { validEvidence } from './evidence.js';
import { reviewKindOf } from './verification.js';
import { readVerdictShape } from './verdict-shape.js';
import { CccError, errorText, isCccError } from '../errors.js';
import { NO_USAGE, type Usage } from '../claude/usage.js';
import type { CheckContext, Checker, UsageReport, Verdict } from './types.js';
import { clip, jsonText } from '../value-text.js';
import { opinionOf, withOpinions, type Agreement, type Opinion } from './agreement.js';

export type { Agreement };

export interface PipelineEntry {
  checker: Checker;
  timeoutSeconds: number;
  /** A reviewer (`claude`, `codex`): the reviewers decide together by `supervisor.agreement`. */
  reviewer?: boolean;
}

export interface PipelineListener {
  onCheckerStart?(name: string): void;
  onCheckerVerdict?(name: string, verdict: Verdict, durationMs: number): void;
  onCheckerError?(name: string, error: CccError, durationMs: number): void;
}

export interface PipelineOutcome {
  verdict: Verdict;
  /** The checker whose verdict decided the round (the last one when all passed). */
  checker: string;
}

export async function runPipeline(
  entries: readonly PipelineEntry[],
  ctx: CheckContext,
  options: { signal?: AbortSignal; listener?: PipelineListener; agreement?: Agreement } = {},
): Promise<PipelineOutcome> {
  const agreement = options.agreement ?? 'all';
  let last: PipelineOutcome = { verdict: { completed: true, feedback: '' }, checker: 'none' };
  const said: Opinion[] = [];
  for (const [index, entry] of entries.entries()) {
    const name = entry.checker.name;
    if (entry.reviewer && agreement === 'one' && said.some((o) => o.completed)) continue;
    const started = Date.now();
    options.listener?.onCheckerStart?.(name);
    try {
      const verdict = await runOne(entry, { ...withUsageReports(ctx), timeoutSeconds: entry.timeoutSeconds }, options.signal);
      options.listener?.onCheckerVerdict?.(name, verdict, Date.now() - started);
      if (entry.reviewer) said.push(opinionOf(name, verdict));
      last = { verdict, checker: name };
      const anotherMayAgree = entry.reviewer && agreement === 'one' && entries.slice(index + 1).some((e) => e.reviewer);
      if (!verdict.completed && !anotherMayAgree) return withOpinions(last, said, agreement);
    } catch (error) {
      const failure = asCheckerError(name, error);
      options.listener?.onCheckerError?.(name, failure, Date.now() - started);
      throw failure;
    }
  }
  return withOpinions(last, said, agreement);
}

/**
 * The one usage call a checker sees: `reportUsage` takes any of the fields (the rest count as 0,
 * so the caller's own `reportUsage` always gets a whole Usage), and the deprecated
 * `reportCost(usd)` is `reportUsage({ cost_usd: usd })`.
 */
function withUsageReports(ctx: CheckContext): CheckContext {
  if (!ctx.reportUsage) return ctx;
  const reportUsage = (usage: UsageReport) => ctx.reportUsage?.(wholeUsage(usage));
  return { ...ctx, reportUsage, reportCost: (usd) => reportUsage({ cost_usd: usd }) };
}

/** A plugin's report as a Usage: a field that is not a finite number of at least 0 counts as 0. */
function wholeUsage(report: UsageReport): Usage {
  const whole: Usage = { ...NO_USAGE };
  for (const key of Object.keys(NO_USAGE) as Array<keyof Usage>) {
    const value: unknown = report?.[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) whole[key] = value;
  }
  const unpriced = report?.unpriced_tokens;
  return typeof unpriced === 'number' && Number.isFinite(unpriced) && unpriced > 0 ? { ...whole, unpriced_tokens: unpriced } : whole;
}

/**
 * After a timeout the checker gets this long to stop its work and report what it knows (exit code,
 * stderr); then the round ends without it, so a timeout holds to the second. A plugin's thread is
 * stopped after as long (isolated-plugin.ts).
 */
export const ABORT_GRACE_MS = 1000;

async function runOne(entry: PipelineEntry, ctx: CheckContext, outer?: AbortSignal): Promise<Verdict> {
  const name = entry.checker.name;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const timeoutError = () => new CccError('CHECKER_TIMEOUT', `checker "${name}" did not answer within ${entry.timeoutSeconds}s`, { data: { checker: name } });
  const work = Promise.resolve().then(() => entry.checker.check(ctx, controller.signal));
  work.catch(() => {}); // observed below; never unhandled when the deadline wins
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const onAbort = () => {
      // The checker was told to stop; let it settle (its own error carries exit code and stderr),
      // but never wait on it for long: a checker that ignores the signal still cannot hang us.
      const grace = setTimeout(() => reject(timeoutError()), ABORT_GRACE_MS);
      work
        .then(
          () => reject(timeoutError()),
          (error) => reject(isCccError(error, 'CHECKER_TIMEOUT') ? error : timeoutError()),
        )
        .finally(() => clearTimeout(grace));
    };
    controller.signal.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => controller.abort(new Error('timeout')), entry.timeoutSeconds * 1000);
  });
  deadline.catch(() => {});
  try {
    const answer = await Promise.race([work, deadline]);
    return validateVerdict(name, answer);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
    // Give the checker its abort so child processes die even when it answered late or threw.
    if (!controller.signal.aborted) controller.abort(new Error('round finished'));
  }
}

export function validateVerdict(checker: string, value: unknown): Verdict {
  const shape = readVerdictShape(value);
  if (shape.ok) {
    const evidence = validEvidence((value as { evidence?: unknown }).evidence);
    const review = reviewKindOf((value as { review?: unknown }).review);
    return { ...shape.verdict, ...(evidence ? { evidence } : {}), ...(review ? { review } : {}) };
  }
  throw new CccError('CHECKER_FAILED', `checker "${checker}" returned ${clip(jsonText(value), 201)}; expected { completed: boolean, feedback: string }`, {
    data: { checker },
  });
}

function asCheckerError(checker: string, error: unknown): CccError {
  if (isCccError(error))
    return error.data.checker ? error : new CccError(error.code, `checker "${checker}": ${error.message}`, { data: { ...error.data, checker }, cause: error });
  const message = errorText(error);
  return new CccError('CHECKER_FAILED', `checker "${checker}" threw: ${message}`, { data: { checker }, cause: error });
}
