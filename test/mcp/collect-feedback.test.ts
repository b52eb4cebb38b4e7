/**
 * collect_feedback with real channels in-process: the web board, and the terminal channel over a
 * fake terminal (the real one is /dev/tty, which tests do not own).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFeedbackBoard } from '../../src/mcp/feedback/board.js';
import { boardChannel } from '../../src/mcp/feedback/channel.js';
import { openControllingTerminal, terminalChannel, type Terminal } from '../../src/mcp/feedback/terminal-channel.js';
import type { FeedbackStore } from '../../src/mcp/storage/mcp-store.js';
import { collectFeedback, NO_ANSWER_REASON } from '../../src/mcp/tools/collect-feedback.js';
import { ToolInputError } from '../../src/mcp/tools/tool-runner.js';
import { until } from './support/fake-worker.js';

function memoryStore() {
  const rows = new Map<string, Record<string, unknown>>();
  const store: FeedbackStore = {
    recordQuestion: (q) => void rows.set(q.id, { ...q, outcome: 'pending' }),
    recordOutcome: (id, o) => void rows.set(id, { ...rows.get(id), ...o }),
  };
  return { store, rows };
}

function fakeTerminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (d: Buffer) => (written += d.toString()));
  let closed = false;
  const terminal: Terminal = { input, output, close: () => void (closed = true) };
  return { terminal, input, written: () => written, closed: () => closed };
}

const context = (signal = new AbortController().signal) => ({ signal, progress: () => {} });

describe('collect_feedback', () => {
  it('returns the answer given on the web page and records it', async () => {
    const board = createFeedbackBoard();
    const { store, rows } = memoryStore();
    const pending = collectFeedback({ question: 'Postgres or SQLite?' }, { channels: [boardChannel(board)], store, newId: () => 'q-1' }, context());
    await until(() => board.pending().length === 1, 'question on the board');
    expect(board.pending()[0]).toMatchObject({ id: 'q-1', question: 'Postgres or SQLite?' });
    board.answer('q-1', 'SQLite');
    expect(await pending).toEqual({ answered: true, answer: 'SQLite', via: 'web', questionId: 'q-1' });
    expect(rows.get('q-1')).toMatchObject({ outcome: 'answered', answer: 'SQLite', via: 'web', timeoutSeconds: 300 });
    expect(board.pending()).toEqual([]);
  });

  it('takes the first answer from either channel and withdraws the question from the other', async () => {
    const board = createFeedbackBoard();
    const tty = fakeTerminal();
    const pending = collectFeedback(
      { question: 'Ship it?' },
      { channels: [boardChannel(board), terminalChannel(() => tty.terminal)], store: memoryStore().store, newId: () => 'q-2' },
      context(),
    );
    await until(() => tty.written().includes('Ship it?'), 'question in the terminal');
    tty.input.write('\n'); // a stray Enter is not an answer
    tty.input.write('yes, ship');
    tty.input.write(' it\n');
    expect(await pending).toMatchObject({ answered: true, answer: 'yes, ship it', via: 'terminal' });
    expect(board.pending()).toEqual([]);
    expect(tty.closed()).toBe(true);
  });

  it('says "no answer: the user is away" when nobody answers in time, as a result, not an error', async () => {
    const board = createFeedbackBoard();
    const { store, rows } = memoryStore();
    const result = await collectFeedback(
      { question: 'Anyone?', timeout_seconds: 1 },
      { channels: [boardChannel(board)], store, newId: () => 'q-3' },
      context(),
    );
    expect(result).toMatchObject({ answered: false, reason: NO_ANSWER_REASON, questionId: 'q-3' });
    expect(rows.get('q-3')).toMatchObject({ outcome: 'no_answer' });
    expect(board.pending()).toEqual([]);
  });

  it('withdraws the question everywhere when the call is cancelled', async () => {
    const board = createFeedbackBoard();
    const tty = fakeTerminal();
    const { store, rows } = memoryStore();
    const controller = new AbortController();
    const pending = collectFeedback(
      { question: 'Wait?' },
      { channels: [boardChannel(board), terminalChannel(() => tty.terminal)], store, newId: () => 'q-4' },
      context(controller.signal),
    );
    await until(() => board.pending().length === 1 && tty.written().includes('Wait?'), 'question shown');
    controller.abort();
    expect(await pending).toMatchObject({ answered: false, reason: 'cancelled by the client' });
    expect(board.pending()).toEqual([]);
    expect(tty.written()).toContain('(the question was withdrawn)');
    expect(rows.get('q-4')).toMatchObject({ outcome: 'cancelled' });
  });

  it('reports progress while it waits, so clients that reset their timeout on progress keep waiting', async () => {
    const updates: Array<{ progress: number; total?: number; message?: string }> = [];
    await collectFeedback(
      { question: 'Still there?', timeout_seconds: 1 },
      { channels: [], store: memoryStore().store, progressEveryMs: 100 },
      { signal: new AbortController().signal, progress: (u) => updates.push(u) },
    );
    expect(updates.length).toBeGreaterThan(0);
    expect(updates[0]).toMatchObject({ total: 1, message: expect.stringMatching(/^waiting for the user's answer/) });
  });

  it('refuses bad arguments with a message saying what is expected', async () => {
    const deps = { channels: [], store: memoryStore().store };
    await expect(collectFeedback({ question: '   ' }, deps, context())).rejects.toThrow(ToolInputError);
    await expect(collectFeedback({ question: 'q', timeout_seconds: 0 }, deps, context())).rejects.toThrow(/timeout_seconds: .*Expected \{"question": string/);
    await expect(collectFeedback(undefined, deps, context())).rejects.toThrow(/arguments: /);
  });

  it('does not use the terminal when stderr is not a terminal or CCC_MCP_FEEDBACK_TTY=0', () => {
    expect(openControllingTerminal({}, false)).toBeUndefined();
    expect(openControllingTerminal({ CCC_MCP_FEEDBACK_TTY: '0' }, true)).toBeUndefined();
  });
});
