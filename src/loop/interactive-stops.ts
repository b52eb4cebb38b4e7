/**
 * The stop path of an interactive session, as one stream:
 *
 *   stop$ ─ concatMap(decide) ─► verdict$ ─► each stop's hook answer
 *
 * One review at a time; each stop is answered by its own verdict (picked out of `verdict$` by the
 * stop it answers); a review that throws fails only its own stop. Loaded after the agent's spawn.
 */
import { catchError, concatMap, filter, firstValueFrom, from, ignoreElements, lastValueFrom, map, of, share, Subject } from 'rxjs';

/** A stop of the agent: the Stop hook's input, and a signal that aborts when the hook hangs up. */
export interface Stop {
  input: string;
  hookGone: AbortSignal;
}

type Verdict = { stop: Stop; output: string } | { stop: Stop; error: unknown };

export interface StopPipe {
  /** The stop channel's handler: this stop's hook output, once its verdict is in. */
  answer(input: string, hookGone: AbortSignal): Promise<string>;
  /** Takes no more stops; resolves once those taken are answered (a running review has settled). */
  close(): Promise<void>;
}

export function stopPipe(decide: (stop: Stop) => Promise<string>): StopPipe {
  const stop$ = new Subject<Stop>();
  const verdict$ = stop$.pipe(
    concatMap((stop) =>
      from(decide(stop)).pipe(
        map((output): Verdict => ({ stop, output })),
        catchError((error: unknown) => of<Verdict>({ stop, error })),
      ),
    ),
    share(),
  );
  // Subscribed for the session's life: a stop is decided even when its hook has hung up, and
  // `share` keeps one queue for all; its end is the end of the last review.
  const drained = lastValueFrom(verdict$.pipe(ignoreElements()), { defaultValue: undefined });
  return {
    async answer(input, hookGone) {
      const stop: Stop = { input, hookGone };
      const verdict = firstValueFrom(verdict$.pipe(filter((v) => v.stop === stop)), { defaultValue: undefined });
      stop$.next(stop);
      const answered = await verdict;
      if (!answered) throw new Error('the session ended before this stop was decided');
      if ('error' in answered) throw answered.error;
      return answered.output;
    },
    close() {
      stop$.complete();
      return drained;
    },
  };
}
