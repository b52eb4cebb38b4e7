/**
 * A user's interactive shell with job control, in a real pty: dash (`/bin/sh -i`), which does not
 * put its own terminal mode back when a job stops, so a mode left behind by the job shows.
 */
import { startPty, type PtyHarness } from './pty-harness.js';

export const PROMPT = /PROMPT\$ \s*$/;

/** `start` makes the pty: `rig.pty` from the fixtures, so that the test's teardown kills the shell. */
export async function startJobShell(
  options: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number },
  start: (command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number }) => PtyHarness = startPty,
): Promise<PtyHarness> {
  const h = start('/bin/sh', ['-i'], { ...options, env: { ...options.env, PS1: 'PROMPT$ ', ENV: '' } });
  await h.waitForScreen(PROMPT);
  return h;
}

/** What the terminal received after the last `marker` (the screen may have been cleared since). */
export function outputAfter(h: PtyHarness, marker: string): string {
  const output = h.output().toString();
  const at = output.lastIndexOf(marker);
  return at === -1 ? '' : output.slice(at);
}
