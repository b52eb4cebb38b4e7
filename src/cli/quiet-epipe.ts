/**
 * `ccc --help | head`, `ccc --version | true`: a reader that stops early is not an error. A leaf,
 * for the `--version` fast path in main.ts as well as the command table (the MCP server on stdout
 * handles its own). And a terminal that is gone (its window closed, the ssh session ended, while
 * the hangup was ignored) answers every write with EIO: nothing can be shown any more, and a
 * supervised run goes on to its end, which its log says, instead of dying on the first line it
 * prints.
 */
export function exitQuietlyOnEpipe(): void {
  ignoreGoneTerminal();
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EIO') return;
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

/** A write to a terminal that is gone fails with EIO: shown to nobody, and not an error of the run. */
export function ignoreGoneTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (!stream.isTTY) continue;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // Another listener (exitQuietlyOnEpipe's) decides on the rest.
      if (error.code !== 'EIO' && stream.listenerCount('error') === 1) throw error;
    });
  }
}
