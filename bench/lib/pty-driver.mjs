/**
 * The harness's side of every variant: it is the pty master, exactly as a terminal emulator is,
 * so the direct program, script(1) and ccc are all measured through the same code. Output is
 * handled as Buffers; the only work per chunk is what the current measurement installs.
 */
import pty from '@lydell/node-pty';

export const READY = Buffer.from('BENCH-READY');
export const DONE = Buffer.from('BENCH-DONE');

export class PtyDriver {
  /** @param {{ file: string, args: string[], cwd: string, env: Record<string,string> }} spec */
  constructor(spec) {
    this.proc = pty.spawn(spec.file, spec.args, {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: spec.cwd,
      env: spec.env,
      encoding: null,
    });
    this.pid = this.proc.pid;
    this.exitCode = undefined;
    this.exited = new Promise((resolve) => this.proc.onExit((e) => resolve((this.exitCode = e.exitCode))));
    /** Replaced by each measurement; receives every chunk and its arrival time. */
    this.onChunk = () => {};
    /** The first output, kept for error messages when a variant never becomes ready. */
    this.head = '';
    /** Bytes received so far. */
    this.bytes = 0;
    this.proc.onData((chunk) => {
      const at = process.hrtime.bigint();
      this.bytes += chunk.length;
      if (this.head.length < 4000) this.head += chunk.toString('latin1');
      this.onChunk(chunk, at);
    });
  }

  write(data) {
    this.proc.write(data);
  }

  /** Resolves with the arrival time of the chunk that completes `marker`; rejects after `timeoutMs`. */
  waitFor(marker, timeoutMs, what) {
    return new Promise((resolve, reject) => {
      const keep = marker.length - 1;
      let tail = Buffer.alloc(0);
      const timer = setTimeout(() => {
        this.onChunk = () => {};
        reject(new Error(`${what}: no ${marker} within ${timeoutMs} ms; output began: ${JSON.stringify(this.head.slice(0, 600))}`));
      }, timeoutMs);
      // A variant that exits before the marker (an unknown command, a usage error) fails at once.
      this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${what}: exited with code ${this.exitCode} before ${marker}; output began: ${JSON.stringify(this.head.slice(0, 600))}`));
      });
      this.onChunk = (chunk, at) => {
        // The marker is searched in the chunk itself (no copy of a large chunk); only a marker split
        // across chunks needs the few bytes kept from the previous one.
        const found = chunk.indexOf(marker) !== -1 || (tail.length > 0 && Buffer.concat([tail, chunk.subarray(0, keep)]).indexOf(marker) !== -1);
        if (found) {
          clearTimeout(timer);
          this.onChunk = () => {};
          resolve(at);
          return;
        }
        const last = chunk.length >= keep ? chunk.subarray(chunk.length - keep) : Buffer.concat([tail, chunk]);
        tail = Buffer.from(last.subarray(Math.max(0, last.length - keep)));
      };
    });
  }

  /** Ends the variant and waits for the whole process tree to be gone from the pty. */
  async stop() {
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    try {
      this.proc.kill('SIGTERM');
    } catch {
      // already gone
    }
    await this.exited;
    clearTimeout(timer);
  }
}
