/**
 * An in-memory ObserverServer for unit tests of whatever publishes to observers (the supervisor
 * loop, the pty proxy): it records what was published and lets a test type as an observer would.
 */
import type { ObserverEvent, ObserverServer } from './observer-server.js';

export interface FakeObserverServer extends ObserverServer {
  readonly pty: Buffer[];
  readonly frames: object[];
  readonly events: ObserverEvent[];
  readonly sessionIds: string[];
  readonly sizes: Array<{ cols: number; rows: number }>;
  readonly gaps: number[];
  readonly closed: boolean;
  /** What an observer typing would cause (listeners fire regardless of allowInput here). */
  emitInput(data: Buffer): void;
}

export function createFakeObserverServer(url = 'http://127.0.0.1:0/?token=fake'): FakeObserverServer {
  const listeners = new Set<(data: Buffer) => void>();
  const fake = {
    url,
    token: new URL(url).searchParams.get('token') ?? '',
    pty: [] as Buffer[],
    frames: [] as object[],
    events: [] as ObserverEvent[],
    sessionIds: [] as string[],
    sizes: [] as Array<{ cols: number; rows: number }>,
    gaps: [] as number[],
    closed: false,
    publishPty: (chunk: Buffer) => void fake.pty.push(Buffer.from(chunk)),
    publishFrame: (frame: object) => void fake.frames.push(frame),
    publishEvent: (event: ObserverEvent) => void fake.events.push(event),
    outputGap: (lost: number) => void fake.gaps.push(lost),
    setOutputSource: () => {},
    replaceTail: (tail: Buffer) => void fake.pty.push(Buffer.from(tail)),
    tailBytes: 1024 * 1024,
    setSession: (id: string) => void fake.sessionIds.push(id),
    resize: (cols: number, rows: number) => void fake.sizes.push({ cols, rows }),
    onInput(listener: (data: Buffer) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emitInput(data: Buffer) {
      for (const listener of listeners) listener(data);
    },
    close() {
      fake.closed = true;
      return Promise.resolve();
    },
  };
  return fake;
}
