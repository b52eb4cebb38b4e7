/** Messages between the screen mirror (main thread) and its worker. Positions are stream offsets. */
export interface ScreenWorkerData {
  cols: number;
  rows: number;
  scrollbackLines: number;
}

export type MirrorRequest =
  | { type: 'write'; at: number; data: Uint8Array }
  /** A fresh terminal from `data` (the tail, which starts at `at`): reset, then write. */
  | { type: 'reset'; at: number; data: Uint8Array }
  | { type: 'resize'; cols: number; rows: number }
  | { type: 'snapshot'; id: number; from: number; maxBytes: number }
  /** Nobody waits for snapshot `id` any more: it is not serialized (nor answered, if not yet sent). */
  | { type: 'cancel'; id: number };

export type MirrorReply = { type: 'snapshot'; id: number; position: number; data: string };

/** What the mirror uses of its worker (a child process: screen-process.ts). */
export interface ScreenWorkerPort {
  postMessage(message: MirrorRequest, transfer: ArrayBuffer[]): void;
  on(event: 'message', listener: (reply: MirrorReply) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  removeAllListeners(event: 'exit'): unknown;
  terminate(): Promise<unknown>;
}
