/** Runs the built `ccc` like a user would, in a private claude world. */
import fs from 'node:fs';
import path from 'node:path';
import { cccBin, type ClaudeWorld } from './claude-env.js';
import { runProcess, type ProcessResult } from './run-process.js';

export const SUPERVISOR_TEXT = '# Review rules for this test\nREVIEW-RULES-7731: check the work with tools.';

export function writeSupervisorPrompt(world: ClaudeWorld, text = SUPERVISOR_TEXT): void {
  fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), text);
}

export function runCcc(
  world: ClaudeWorld,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return runProcess(process.execPath, [cccBin, ...args], {
    cwd: world.cwd,
    env: { ...world.env, ...options.env },
    input: options.input,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}

export function readLog(world: ClaudeWorld, sessionId?: string): string {
  const dir = path.join(world.claudeDir, 'ccc');
  const files = fs.readdirSync(dir).filter((f) => f.startsWith('supervisor-') && f.endsWith('.log') && (!sessionId || f.includes(sessionId)));
  return files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('');
}

/** The last line of the session log (of `sessionId`, else of the one log there is): how the run ended. */
export function lastLogLine(world: ClaudeWorld, sessionId?: string): string {
  return readLog(world, sessionId).trimEnd().split('\n').pop() ?? '';
}

/** Processes whose working directory is inside the world: whatever a test left running there. */
export function processesIn(world: ClaudeWorld): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`).startsWith(world.root)) found.push(Number(entry));
    } catch {
      // gone or not ours
    }
  }
  return found;
}
