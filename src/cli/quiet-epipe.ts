/**
 * `ccc --help | head`, `ccc --version | true`: a reader that stops early is not an error. A leaf,
 * for the `--version` fast path in main.ts as well as the command table (the MCP server on stdout
 * handles its own).
 */
export function exitQuietlyOnEpipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
