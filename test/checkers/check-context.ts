/** A complete CheckContext for checker tests: a real directory, a recording logger, overridable. */
import { createRecordingLogger } from '../../src/log/memory-logger.js';
import type { CheckContext } from '../../src/checkers/types.js';

export function checkContext(cwd: string, overrides: Partial<CheckContext> = {}): CheckContext {
  return {
    sessionId: 'session-1',
    transcriptPath: '/nonexistent/transcript.jsonl',
    cwd,
    userPrompts: ['make the tests pass'],
    lastAssistantMessage: 'All done.',
    iteration: 1,
    maxIterations: 5,
    completionMarker: '[TASK_COMPLETED]',
    timeoutSeconds: 30,
    frames: [],
    claudeArgs: [],
    claudeCommand: 'claude',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    logger: createRecordingLogger('checker'),
    ...overrides,
  };
}

/** The command lines of running processes that contain `marker` (to prove a tree was killed). */
export async function processesMentioning(marker: string): Promise<string[]> {
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}
