/** Messages between the screen mirror (main thread) and its worker. Positions are stream offsets. */
export interface ScreenWorkerData {
  cols: number;
  rows: number;
  scrollbackLines: number;
}

export type MirrorRequest =
  | { type: 'write'; at: number; data: Uint8Array }
  /** Output between the previous write and `at` was skipped: reset the terminal, then write. */
  | { type: 'reset'; at: number; data: Uint8Array }
  | { type: 'resize'; cols: number; rows: number }
  | { type: 'snapshot'; id: number; from: number; maxBytes: number };

export type MirrorReply =
  /** Everything before `position` has been parsed. */
  | { type: 'ack'; position: number }
  | { type: 'snapshot'; id: number; position: number; data: string };
