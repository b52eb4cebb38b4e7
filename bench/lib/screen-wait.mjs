/**
 * A program in a pty whose screen is read through a headless terminal emulator (@xterm/headless),
 * as a user would see it: resolves with the arrival time of the chunk after which `text` is on
 * the screen (the emulator parses asynchronously; its write callback says when a chunk is applied).
 */
import xtermHeadless from '@xterm/headless';
import pty from '@lydell/node-pty';

const { Terminal } = xtermHeadless;

/**
 * @param {{ file: string, args: string[], cwd: string, env: Record<string,string> }} spec
 * @returns {{ started: bigint, seen: Promise<bigint>, stop(): Promise<void>, screen(): string }}
 */
export function startOnScreen(spec, text, timeoutMs) {
  const cols = 120;
  const rows = 40;
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
  const started = process.hrtime.bigint();
  const proc = pty.spawn(spec.file, spec.args, { name: 'xterm-256color', cols, rows, cwd: spec.cwd, env: spec.env, encoding: null });
  const exited = new Promise((resolve) => proc.onExit(resolve));
  const screen = () => {
    const buffer = term.buffer.active;
    const lines = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  let found = false;
  const seen = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${text} on screen within ${timeoutMs} ms; screen:\n${screen().trim()}`)), timeoutMs);
    exited.then((e) => {
      clearTimeout(timer);
      if (!found) reject(new Error(`exited (${JSON.stringify(e)}) before ${text} was on screen; screen:\n${screen().trim()}`));
    });
    proc.onData((chunk) => {
      const at = process.hrtime.bigint();
      term.write(chunk, () => {
        if (found || !screen().includes(text)) return;
        found = true;
        clearTimeout(timer);
        resolve(at);
      });
    });
  });
  seen.catch(() => {});
  return {
    started,
    seen,
    screen,
    async stop() {
      const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
      try {
        proc.kill('SIGTERM');
      } catch {
        // already gone
      }
      await exited;
      clearTimeout(kill);
      term.dispose();
    },
  };
}
