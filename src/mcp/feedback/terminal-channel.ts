/**
 * Asks the question in the terminal, when the terminal is ours to use.
 *
 * In stdio MCP mode stdin is the protocol, so the terminal can only be reached through /dev/tty.
 * But under Claude Code's interactive TUI an MCP server shares claude's controlling terminal
 * (checked with claude 2.1: same session, /dev/tty opens), and reading it would steal the user's
 * keystrokes from the TUI and garble its screen. Such clients capture the server's stderr, while a
 * person who starts `ccc mcp` from a terminal sees it there. So the terminal is used only when
 * stderr is a terminal and /dev/tty opens; `CCC_MCP_FEEDBACK_TTY=0` turns it off altogether.
 */
import fs from 'node:fs';
import tty from 'node:tty';
import type { FeedbackChannel } from './channel.js';

export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  close(): void;
}

/** Opens /dev/tty for one question, or returns undefined when the terminal is not ours to use. */
export function openControllingTerminal(env: NodeJS.ProcessEnv, stderrIsTerminal: boolean): Terminal | undefined {
  if (env.CCC_MCP_FEEDBACK_TTY === '0' || !stderrIsTerminal) return undefined;
  let readFd: number | undefined;
  try {
    readFd = fs.openSync('/dev/tty', 'r');
    const writeFd = fs.openSync('/dev/tty', 'w');
    const input = new tty.ReadStream(readFd);
    const output = new tty.WriteStream(writeFd);
    return {
      input,
      output,
      close() {
        input.destroy();
        output.destroy();
      },
    };
  } catch {
    if (readFd !== undefined) fs.closeSync(readFd);
    return undefined;
  }
}

/** A channel that opens the terminal per question (and never answers when it cannot). */
export function terminalChannel(open: () => Terminal | undefined): FeedbackChannel {
  return {
    name: 'terminal',
    ask(question, signal) {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve(undefined);
        const terminal = open();
        if (!terminal) {
          signal.addEventListener('abort', () => resolve(undefined), { once: true });
          return;
        }
        let buffered = '';
        const finish = (answer: string | undefined, note?: string) => {
          terminal.input.removeListener('data', onData);
          signal.removeEventListener('abort', onAbort);
          if (note) terminal.output.write(note);
          terminal.close();
          resolve(answer);
        };
        const onData = (chunk: Buffer | string) => {
          buffered += chunk.toString();
          const newline = buffered.search(/\r?\n|\r/);
          if (newline < 0) return;
          const line = buffered.slice(0, newline).trim();
          buffered = '';
          // An empty line is a stray Enter, not an answer: ask again.
          if (line === '') terminal.output.write('Your answer (Enter to send): ');
          else finish(line);
        };
        const onAbort = () => finish(undefined, '\n[ccc mcp] (the question was withdrawn)\n');
        terminal.input.on('data', onData);
        signal.addEventListener('abort', onAbort, { once: true });
        terminal.output.write(`\n[ccc mcp] The agent asks:\n${question.question}\nYour answer (Enter to send): `);
      });
    },
  };
}
