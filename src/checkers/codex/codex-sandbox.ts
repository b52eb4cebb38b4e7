/**
 * Whether codex's kernel sandbox works on this machine, asked of codex itself: `codex sandbox -P
 * :read-only` runs a small shell under the same sandbox a read-only review gets, which must start
 * and must be refused a write. On Linux the sandbox is bubblewrap (shipped inside the codex
 * package) with seccomp; where the kernel allows no new user namespace (some containers, a
 * sysctl), bubblewrap cannot start and every command of a review would fail with its message
 * ("bwrap: Creating new namespace failed: …"): codex does not fall back to running unsandboxed.
 * ccc then refuses to run the codex reviewer, naming that message, unless the user opted in to an
 * unsandboxed review (`supervisor.codex.unsandboxed`).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { childRunner, type ChildRunner } from '../../process/child-process.js';

export type SandboxState = { works: true } | { works: false; why: string };

const PROBE = 'touch "$1/written" 2>/dev/null && echo CCC_WROTE; echo CCC_ALIVE';

export async function probeSandbox(options: { command: string; env: NodeJS.ProcessEnv; runner?: ChildRunner; signal?: AbortSignal }): Promise<SandboxState> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccc-codex-probe-'));
  try {
    const run = await (options.runner ?? childRunner).run({
      command: options.command,
      args: ['sandbox', '-P', ':read-only', '-C', dir, '--', 'sh', '-c', PROBE, 'sh', dir],
      env: options.env,
      cwd: dir,
      timeoutMs: 30_000,
      signal: options.signal,
    });
    const out = run.stdout ?? '';
    if (run.spawnError) return { works: false, why: `\`${options.command}\` could not be started: ${run.spawnError.message}` };
    if (out.includes('CCC_WROTE')) return { works: false, why: 'a write inside the sandbox was not refused' };
    if (run.exitCode === 0 && out.includes('CCC_ALIVE')) return { works: true };
    const said = run.stderrTail.split('\n').filter((l) => l.trim() && !/^WARNING: proceeding/.test(l));
    return { works: false, why: said.slice(-3).join(' ').trim() || `\`codex sandbox\` exited with code ${run.exitCode ?? run.signal}` };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
