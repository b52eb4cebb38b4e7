/**
 * A child process with a headless terminal (xterm.js) that the screen mirror feeds with the tail of
 * the session's output when a late joiner needs the screen. It runs off the main thread: parsing
 * terminal output costs far more than forwarding it, and with the Node proxy the user's keystrokes
 * pass through the main thread. A process, not a worker thread: what a thread's isolate allocated
 * stays in ccc's malloc arenas after the thread ends (see bench/RESULTS.md, "Screen worker: a
 * thread against a process"), while a process gives everything back when it exits
 * (screen-process.ts starts it).
 *
 * Positions are offsets in the whole output stream since the session started. A snapshot asked
 * for at position `from` is taken at the first place at or after `from` where no escape sequence
 * or UTF-8 character is open (see vt-boundary.ts), and the answer says where that was.
 */
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import { createVtBoundary } from './vt-boundary.js';
import type { MirrorReply, MirrorRequest, ScreenWorkerData } from './screen-worker-protocol.js';

/** A joiner waits at most this long for an open sequence to end before it gets the screen as is. */
const BOUNDARY_WAIT_MS = 1000;

interface Waiting {
  id: number;
  from: number;
  maxBytes: number;
  timer: NodeJS.Timeout;
}

const init = JSON.parse(process.argv[2] ?? '{}') as ScreenWorkerData;
// The mirror went (ccc ended, even by kill -9): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
const term = new xtermHeadless.Terminal({
  cols: init.cols,
  rows: init.rows,
  scrollback: init.scrollbackLines,
  allowProposedApi: true,
  // xterm.js prints each sequence it cannot parse (a stray DEL, a C1 byte in binary output) to the
  // console, a dozen lines each; this process's stderr is ccc's, the user's terminal.
  logLevel: 'off',
});
const serializer = new serializeAddon.SerializeAddon();
// The addon's typings name the browser Terminal; the headless one has the same surface.
term.loadAddon(serializer);
const boundary = createVtBoundary();
let position = 0;
let waiting: Waiting[] = [];
/** Requests whose screen is due once xterm has parsed what came before them. */
const answering = new Set<number>();
/** Of those, the ones withdrawn meanwhile. */
const cancelled = new Set<number>();

function reply(message: MirrorReply): void {
  process.send?.(message);
}

function serialize(maxBytes: number): string {
  let lines = Math.max(0, term.buffer.normal.length - term.rows);
  let text = serializer.serialize({ scrollback: lines });
  // Less scrollback until it fits; the visible screen itself is always sent.
  while (Buffer.byteLength(text, 'utf8') > maxBytes && lines > 0) {
    lines = Math.floor(lines / 2);
    text = serializer.serialize({ scrollback: lines });
  }
  return text;
}

/** Answers `due` once xterm has parsed everything written before this call. */
function answerAfterWrites(due: Waiting[], at: number): void {
  for (const w of due) {
    clearTimeout(w.timer);
    answering.add(w.id);
  }
  term.write(new Uint8Array(0), () => {
    for (const w of due) {
      answering.delete(w.id);
      if (cancelled.delete(w.id)) continue;
      reply({ type: 'snapshot', id: w.id, position: at, data: serialize(w.maxBytes) });
    }
  });
}

function cancel(id: number): void {
  for (const w of waiting) if (w.id === id) clearTimeout(w.timer);
  waiting = waiting.filter((w) => w.id !== id);
  if (answering.has(id)) cancelled.add(id);
}

function takeDue(limit: number): Waiting[] {
  const due = waiting.filter((w) => w.from <= limit);
  waiting = waiting.filter((w) => w.from > limit);
  return due;
}

function write(at: number, data: Uint8Array): void {
  let offset = 0;
  let written = 0;
  while (waiting.length > 0) {
    const earliest = Math.min(...waiting.map((w) => w.from));
    if (earliest > at + data.length) break;
    const target = Math.max(earliest - at, offset);
    boundary.feed(data, offset, target);
    const safe = boundary.feedToBoundary(data, target);
    if (safe < 0) {
      offset = data.length;
      break;
    }
    offset = safe;
    term.write(data.subarray(written, safe));
    written = safe;
    answerAfterWrites(takeDue(at + safe), at + safe);
  }
  boundary.feed(data, offset, data.length);
  position = at + data.length;
  term.write(data.subarray(written));
}

function requestSnapshot(id: number, from: number, maxBytes: number): void {
  const timer = setTimeout(() => {
    // The stream stayed inside a sequence (or stopped there): the screen as it is beats none.
    const due = waiting.filter((w) => w.id === id);
    waiting = waiting.filter((w) => w.id !== id);
    if (due.length > 0) answerAfterWrites(due, position);
  }, BOUNDARY_WAIT_MS);
  const entry = { id, from, maxBytes, timer };
  if (from <= position && boundary.atBoundary()) answerAfterWrites([entry], position);
  else waiting.push(entry);
}

process.on('message', (message: MirrorRequest) => {
  switch (message.type) {
    case 'write':
      write(message.at, message.data);
      return;
    case 'reset':
      // A tail that does not follow what this terminal saw: start from a clean one (RIS, in stream order).
      term.write('\x1bc');
      boundary.reset();
      write(message.at, message.data);
      return;
    case 'resize':
      term.write(new Uint8Array(0), () => term.resize(message.cols, message.rows));
      return;
    case 'snapshot':
      requestSnapshot(message.id, message.from, message.maxBytes);
      return;
    case 'cancel':
      cancel(message.id);
      return;
  }
});
