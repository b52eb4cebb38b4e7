/**
 * The agent's frames in an interactive session, as one stream graph (docs/design/streams.md):
 *
 *   sessionId$ ─ distinctUntilChanged ─ switchMap(tail that session's transcript) ─ frames$ (shared)
 *                                                                                   └─ scan → window$
 *
 * The session id comes from the launch (`--session-id`, `--resume <id>`) and from every Stop hook
 * (`--continue`, and `/clear` or `/resume` inside the TUI, which start another transcript), so
 * the tail follows whichever session is current. `window$` holds the last frames of the current
 * session: what checkers get as `ctx.frames`. A review waits (briefly) until the window has seen as
 * many frames as the transcript held when the agent stopped, so a just-resumed session is complete.
 */
import { distinctUntilChanged, filter, firstValueFrom, map, of, scan, share, shareReplay, switchMap, timeout, type Observable, type Subscription } from 'rxjs';
import type { Frame } from '../frames/frame.js';

interface FrameWindow {
  sessionId: string;
  /** Frames seen in this session (all of them, not only those kept). */
  count: number;
  /** The last ones, oldest first. */
  frames: readonly Frame[];
}

export interface AgentFrames {
  /** Every frame of the current session, in order. */
  frames$: Observable<Frame>;
  /** The window of `sessionId` once it has seen `atLeast` frames, or as it is after `waitMs`. */
  recent(sessionId: string, atLeast: number, waitMs?: number): Promise<readonly Frame[]>;
  /** Ends the tail and the window. */
  stop(): void;
}

export function agentFrames(sessionId$: Observable<string>, tail: (sessionId: string) => Observable<Frame>, size = 500): AgentFrames {
  const tagged$ = sessionId$.pipe(
    distinctUntilChanged(),
    switchMap((sessionId) => tail(sessionId).pipe(map((frame) => ({ sessionId, frame })))),
    share(),
  );
  const window$ = tagged$.pipe(
    scan((w: FrameWindow, { sessionId, frame }) => (w.sessionId === sessionId ? keep(w, frame, size) : { sessionId, count: 1, frames: [frame] }), {
      sessionId: '',
      count: 0,
      frames: [],
    }),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  let latest: FrameWindow = { sessionId: '', count: 0, frames: [] };
  const subscription: Subscription = window$.subscribe((w) => (latest = w));
  // A copy: the window keeps moving while a checker reads its context.
  const framesOf = (w: FrameWindow, sessionId: string) => (w.sessionId === sessionId ? [...w.frames] : []);
  return {
    frames$: tagged$.pipe(map(({ frame }) => frame)),
    recent(sessionId, atLeast, waitMs = 2000) {
      const ready = (w: FrameWindow) => w.sessionId === sessionId && w.count >= atLeast;
      if (ready(latest)) return Promise.resolve([...latest.frames]);
      return firstValueFrom(
        window$.pipe(
          filter(ready),
          timeout({ first: waitMs, with: () => of(latest) }),
          map((w) => framesOf(w, sessionId)),
        ),
        { defaultValue: framesOf(latest, sessionId) },
      );
    },
    stop: () => subscription.unsubscribe(),
  };
}

/** The window with `frame` added, bounded to `size` (the array is the scan's own accumulator). */
function keep(w: FrameWindow, frame: Frame, size: number): FrameWindow {
  const frames = w.frames as Frame[];
  frames.push(frame);
  if (frames.length > size) frames.splice(0, frames.length - size);
  return { sessionId: w.sessionId, count: w.count + 1, frames };
}
