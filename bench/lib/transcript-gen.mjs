/**
 * Generates a transcript-like JSONL file of a given size: the mix of frame shapes a long Claude
 * Code session writes (user prompts, assistant text, tool calls, tool results of a few KB), each
 * line distinct. Written in 1 MiB batches with a synchronous writer: generation is not what is
 * being measured, and it stays far faster than the parser.
 */
import fs from 'node:fs';

const MiB = 1024 * 1024;

function lineAt(i, { prompts = true, sessionId = '00000000-0000-4000-8000-000000000001' } = {}) {
  const uuid = `${(i * 2654435761) >>> 0}`.padStart(10, '0');
  const base = {
    parentUuid: `p-${uuid}`,
    uuid: `u-${uuid}`,
    sessionId,
    timestamp: '2026-11-22T02:00:00.000Z',
    cwd: '/work/project',
  };
  switch (i % 8) {
    case 0:
      if (!prompts)
        return { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${uuid}`, content: 'ok' }] } };
      return { ...base, type: 'user', message: { role: 'user', content: `Please fix the failing test number ${i} and run the whole suite again.` } };
    case 1:
    case 2:
      return {
        ...base,
        type: 'assistant',
        message: {
          role: 'assistant',
          model: 'claude-sonnet',
          content: [{ type: 'text', text: `Step ${i}: `.padEnd(600, 'I read the file, found the cause and changed the check. ') }],
          usage: { input_tokens: 1200 + (i % 97), output_tokens: 300 },
        },
      };
    case 3:
    case 4:
      return {
        ...base,
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: `toolu_${uuid}`,
              name: 'Bash',
              input: { command: `npx vitest run test/case-${i % 1000}.test.ts`, description: 'Run the test' },
            },
          ],
        },
      };
    case 5:
    case 6:
      return {
        ...base,
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${uuid}`, content: ` ✓ test/case-${i}.test.ts (12 tests) 48ms\n`.repeat(60) }],
        },
      };
    default:
      return { ...base, type: 'system', subtype: 'informational', content: `Compacted context at step ${i} — “quoted” unicode ✓` };
  }
}

/** Distinct lines, generated once and then cycled: JSON.stringify per line would dominate a 1 GB run. */
const POOL_SIZE = 4096;

/**
 * Writes about `bytes` of JSONL to `file`. With `hugeLineBytes`, one frame in the middle carries a
 * tool result of that size (valid JSON, so a parser that keeps it must parse all of it). With
 * `prompts: false` no line is a prompt the user typed (a session's history that adds nothing to
 * the review request); `sessionId` goes into every line.
 * @returns {{ bytes: number, lines: number, hugeLines: number }}
 */
export function generateTranscript(file, bytes, { hugeLineBytes = 0, prompts = true, sessionId } = {}) {
  const pool = Array.from({ length: POOL_SIZE }, (_, i) => Buffer.from(JSON.stringify(lineAt(i, { prompts, sessionId })) + '\n'));
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let lines = 0;
  const write = (buffer) => {
    fs.writeSync(fd, buffer);
    written += buffer.length;
  };
  let hugeDone = hugeLineBytes === 0;
  try {
    while (written < bytes) {
      if (!hugeDone && written >= bytes / 2) {
        const content = 'x'.repeat(hugeLineBytes);
        write(
          Buffer.from(
            JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_huge', content }] } }) + '\n',
          ),
        );
        lines += 1;
        hugeDone = true;
      }
      const batch = [];
      let size = 0;
      while (size < MiB) {
        const line = pool[lines % POOL_SIZE];
        batch.push(line);
        size += line.length;
        lines += 1;
      }
      write(Buffer.concat(batch, size));
    }
  } finally {
    fs.closeSync(fd);
  }
  return { bytes: written, lines, hugeLines: hugeLineBytes ? 1 : 0 };
}
