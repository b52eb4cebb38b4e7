/**
 * Pins what the real claude hands back for a Bash command whose output is long, or that outlives
 * its timeout, which the reviewer's evidence relies on (src/checkers/reviewer/run-evidence.ts):
 * over 30,000 characters a successful command's result is a `<persisted-output>` preview of its
 * first 2 KB, and a failed one keeps its start and an end with `[N characters truncated]` between:
 * in neither is the runner's summary at the very end. In print mode a command past its `timeout`
 * is killed: an error result `Exit code 143` / `Command timed out after 1s` (the binary also has a
 * `[still running]` answer for a command it moves to the background; the evidence never counts
 * one).
 */
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { claudeBin } from '../support/claude-env.js';
import { jsonLines, runProcess } from '../support/run-process.js';

const LONG = (last: string, exit: number) =>
  `python3 -c "import sys; print('HEAD-LINE'); [print('x' * 99) for _ in range(1000)]; print('${last}'); sys.exit(${exit})"`;

describe('long and unfinished Bash results of the real claude', () => {
  it('a long output loses its end; a command past its timeout is killed with exit code 143', async ({ rig }) => {
    const calls = [
      { command: LONG('SUMMARY-END 12 passed', 0) },
      { command: LONG('SUMMARY-END 1 failed', 1) },
      { command: 'sleep 4; echo LATE-OUTPUT', timeout: 1000 },
    ];
    const server = await rig.server((r) => {
      const call = calls[r.body.messages.filter((m) => m.role === 'assistant').length];
      return call ? { toolUse: { name: 'Bash', input: { ...call, description: 'step' } } } : { text: 'done' };
    });
    const world = rig.world({ server });
    const run = await runProcess(claudeBin, ['-p', 'go', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', '--no-session-persistence'], {
      cwd: world.cwd,
      env: world.env,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = jsonLines(run.stdout)
      .filter((f) => f.type === 'user')
      .flatMap((f) => (f.message as { content: Array<{ type: string; content?: unknown; is_error?: boolean }> }).content)
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({ isError: b.is_error === true, text: typeof b.content === 'string' ? b.content : JSON.stringify(b.content) }));
    expect(results).toHaveLength(3);
    const [long, failed, late] = results;
    expect(long).toEqual({
      isError: false,
      text: expect.stringMatching(/^<persisted-output>\nOutput too large \([\d.]+KB\)\. Full output saved to: .*\n\nPreview \(first 2KB\):\nHEAD-LINE\n/),
    });
    expect(long!.text).not.toContain('SUMMARY-END');
    expect(failed).toEqual({ isError: true, text: expect.stringMatching(/^Exit code 1\nHEAD-LINE\n[\s\S]*\n\.\.\. \[\d+ characters truncated\] \.\.\.\n/) });
    expect(failed!.text).not.toContain('SUMMARY-END');
    expect(late).toEqual({ isError: true, text: expect.stringMatching(/^Exit code 143\nCommand timed out after 1s/) });
    expect(late!.text).not.toContain('LATE-OUTPUT');
  }, 60_000);
});
