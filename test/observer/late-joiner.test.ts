/**
 * A late joiner sees the same screen as the user, at once: its snapshot, written into a fresh
 * terminal, renders what a terminal fed every byte from the start renders, and the live bytes that
 * follow keep the two equal, also when the join falls inside an escape sequence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ObserverServer } from '../../src/observer/observer-server.js';
import { connectObserver } from './support/test-observer.js';
import { startTestObserver } from './support/start-test-observer.js';
import { newTerminal, screenText, writeAll } from './support/screen.js';

let server: ObserverServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cols = 60;
const rows = 12;

/** Output with colours, cursor moves, wide characters, wrapping and scrolling. */
function busyOutput(): string {
  let out = '\x1b[1;34mccc\x1b[0m session start\r\n';
  for (let i = 0; i < 40; i++) out += `\x1b[3${i % 8}mline ${i}\x1b[0m ${'wrap '.repeat(i % 17)}漢字 ✓\r\n`;
  out += '\x1b[5;10H\x1b[7m[ reverse box ]\x1b[0m\x1b[2K\x1b[10;1H> prompt text\x1b[K';
  return out;
}

async function joinAndRender(
  server: ObserverServer,
): Promise<{ client: ReturnType<typeof newTerminal>; observer: Awaited<ReturnType<typeof connectObserver>> }> {
  const observer = await connectObserver(server.url);
  await observer.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
  const client = newTerminal(cols, rows);
  await writeAll(client, observer.snapshot()!);
  return { client, observer };
}

describe('late joiner', () => {
  it('renders the same screen as a terminal that saw every byte, before and after live output', async () => {
    server = await startTestObserver({ hello: { cwd: '/p', command: ['claude'], cols, rows, started_at: 'x' } });
    const reference = newTerminal(cols, rows);
    const before = Buffer.from(busyOutput());
    // Chunks cut at arbitrary places, as a pty delivers them.
    for (let i = 0; i < before.length; i += 97) server.publishPty(before.subarray(i, i + 97));
    await writeAll(reference, before);

    const { client, observer } = await joinAndRender(server);
    expect(screenText(client)).toBe(screenText(reference));
    expect(screenText(client)).toContain('> prompt text');

    const after = Buffer.from('\x1b[12;1H\x1b[32mlive after join\x1b[0m\r\nmore 漢字\r\n');
    server.publishPty(after);
    await writeAll(reference, after);
    await observer.waitFor(() => observer.liveBytes().length === after.length, 'the live bytes');
    await writeAll(client, observer.liveBytes());
    expect(screenText(client)).toBe(screenText(reference));
  });

  it('takes the snapshot after an escape sequence or UTF-8 character that was cut by the join', async () => {
    server = await startTestObserver({ hello: { cwd: '/p', command: ['claude'], cols, rows, started_at: 'x' } });
    const reference = newTerminal(cols, rows);
    const kanji = Buffer.from('漢');
    // Each observer joins right after one of these parts, i.e. inside a CSI, inside an OSC,
    // and inside a UTF-8 character; the next part completes it.
    const parts = [
      Buffer.from('plain \x1b[3'),
      Buffer.from('1mred\x1b[0m \x1b]0;tit'),
      Buffer.from('le\x07 after osc '),
      kanji.subarray(0, 2),
      Buffer.concat([kanji.subarray(2), Buffer.from(' done')]),
    ];
    const observers: Array<Awaited<ReturnType<typeof connectObserver>>> = [];
    for (const part of parts) {
      server.publishPty(part);
      await writeAll(reference, part);
      observers.push(await connectObserver(server.url));
    }
    const tail = Buffer.from('\r\n\x1b[1mthe end\x1b[0m');
    server.publishPty(tail);
    await writeAll(reference, tail);
    for (const observer of observers) {
      // Joiners waiting together share one screen, which may be taken after the tail: then the
      // tail is in the screen and no live byte follows it.
      const tailSeen = () =>
        observer.liveBytes().toString('latin1').endsWith('the end\x1b[0m') || (observer.snapshot()?.toString('latin1') ?? '').includes('the end');
      await observer.waitFor(tailSeen, 'the tail');
      const client = newTerminal(cols, rows);
      await writeAll(client, observer.snapshot()!);
      await writeAll(client, observer.liveBytes());
      expect(screenText(client)).toBe(screenText(reference));
      expect(screenText(client)).toContain('plain red  after osc 漢 done');
    }
  });

  it('reproduces the alternate screen a full-screen program is drawing on', async () => {
    server = await startTestObserver({ hello: { cwd: '/p', command: ['claude'], cols, rows, started_at: 'x' } });
    const reference = newTerminal(cols, rows);
    const output = Buffer.from('shell prompt $ \r\n\x1b[?1049h\x1b[H\x1b[2J\x1b[44m full screen \x1b[0m\x1b[6;20Hcentre');
    server.publishPty(output);
    await writeAll(reference, output);
    const { client } = await joinAndRender(server);
    expect(screenText(client)).toBe(screenText(reference));
    expect(screenText(client)).toMatch(/^\[alternate\]/);
  });

  it('follows the user terminal size in the snapshot', async () => {
    server = await startTestObserver({ hello: { cwd: '/p', command: ['claude'], cols, rows, started_at: 'x' } });
    server.publishPty(Buffer.from('before resize\r\n'));
    server.resize(100, 20);
    const wide = `${'w'.repeat(95)}\r\n`;
    server.publishPty(Buffer.from(wide));
    const reference = newTerminal(cols, rows);
    await writeAll(reference, 'before resize\r\n');
    reference.resize(100, 20);
    await writeAll(reference, wide);
    const observer = await connectObserver(server.url);
    await observer.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
    expect(observer.messages[0]).toMatchObject({ type: 'hello', session: { cols: 100, rows: 20 } });
    const client = newTerminal(100, 20);
    await writeAll(client, observer.snapshot()!);
    expect(screenText(client)).toBe(screenText(reference));
  });
});

describe('late joiner after a flood', () => {
  it('gets the right screen once the program redraws, after a 48 MB flood the lazy mirror never parsed', async () => {
    server = await startTestObserver({ hello: { cwd: '/p', command: ['claude'], cols, rows, started_at: 'x' } });
    const line = Buffer.from(`\x1b[33m${'flood '.repeat(9)}\x1b[0m\r\n`);
    const chunk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < chunk.length; i += line.length) line.copy(chunk, i);
    for (let sent = 0; sent < 48 * 1024 * 1024; sent += chunk.length) {
      server.publishPty(Buffer.from(chunk));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // A TUI redraws its whole screen now and then; that is what the joiner must see.
    const redraw = Buffer.from(`\x1b[H\x1b[2J\x1b[1mClaude Code\x1b[0m\r\n\r\n> the prompt\x1b[${rows};1Hstatus line`);
    server.publishPty(redraw);
    const reference = newTerminal(cols, rows);
    await writeAll(reference, redraw);

    const { client } = await joinAndRender(server);
    expect(visibleRows(client)).toEqual(visibleRows(reference));
  }, 120_000);
});

function visibleRows(term: ReturnType<typeof newTerminal>): string[] {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) lines.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? '');
  return lines;
}
