/**
 * Counts the bytes this process reads through `fs.promises` file handles (what a transcript reader
 * reads), so a test can tell a reading of what is new from a reading of the whole file.
 */
import fs from 'node:fs';
import { vi } from 'vitest';

export interface BytesRead {
  bytes(): number;
  reset(): void;
}

/** Counts from now until `vi.restoreAllMocks()`; `anyFile` must exist (it opens the handle class once). */
export async function countBytesRead(anyFile: string): Promise<BytesRead> {
  const handle = await fs.promises.open(anyFile, 'r');
  const proto = Object.getPrototypeOf(handle) as fs.promises.FileHandle;
  await handle.close();
  const original = Reflect.get(proto, 'read') as (...args: unknown[]) => Promise<{ bytesRead: number }>;
  let bytes = 0;
  vi.spyOn(proto, 'read').mockImplementation(async function (this: fs.promises.FileHandle, ...args: unknown[]) {
    const result = await original.apply(this, args);
    bytes += result.bytesRead;
    return result;
  } as fs.promises.FileHandle['read']);
  return { bytes: () => bytes, reset: () => (bytes = 0) };
}
