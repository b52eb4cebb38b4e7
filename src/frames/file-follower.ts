/**
 * Follows a growing file (`tail -f`): calls `read` whenever the file may have grown, and the
 * reader reads what is new (transcript-reader.ts; it runs one reading at a time and lets calls
 * that overlap share one). The file may not exist yet (Claude Code creates the transcript on the
 * first message). `fs.watch` gives prompt notice where it works; a poll covers the rest (no watch
 * before the file exists, network file systems, a watcher lost to a rename).
 */
import fs from 'node:fs';

export interface FollowFileOptions {
  /** Poll interval in milliseconds (the fallback when fs.watch is silent). */
  pollMs: number;
  /** Reads what is new in the file. A missing file (ENOENT) is waited for; any other failure goes to `onError`. */
  read(): Promise<unknown>;
  onError?(error: Error): void;
}

export interface FileFollower {
  /** Stops watching and polling. Idempotent. */
  close(): void;
}

export function followFile(file: string, options: FollowFileOptions): FileFollower {
  let closed = false;
  let watcher: fs.FSWatcher | undefined;

  const dropWatcher = () => {
    watcher?.close();
    watcher = undefined;
  };
  const read = () => {
    if (closed) return;
    options.read().catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' && !closed) options.onError?.(error);
    });
  };
  const ensureWatcher = () => {
    if (watcher || closed) return;
    try {
      watcher = fs.watch(file, (event) => {
        // After a rename the watcher follows the old inode: let the poll set up a new one.
        if (event === 'rename') dropWatcher();
        read();
      });
      watcher.on('error', dropWatcher);
      watcher.unref();
    } catch {
      // Not there yet (or not watchable): the poll keeps reading and retries the watch.
    }
  };

  const timer = setInterval(() => {
    ensureWatcher();
    read();
  }, options.pollMs);
  // Following a file must not by itself keep the process alive; the caller ends it with close().
  timer.unref();
  ensureWatcher();
  read();

  return {
    close() {
      closed = true;
      clearInterval(timer);
      dropWatcher();
    },
  };
}
