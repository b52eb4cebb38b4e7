/**
 * The observer server with real ws clients: what each observer receives, in which order, and what
 * happens to observers that misbehave.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ObserverEvent, ObserverServer } from '../../src/observer/observer-server.js';
import { connectObserver, upgradeStatus, wsUrl } from './support/test-observer.js';
import { startTestObserver, testHello } from './support/start-test-observer.js';

let server: ObserverServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Deterministic pseudo-random bytes: every byte value, split anywhere (mid-escape, mid-UTF-8). */
function randomStream(seed: number, total: number): Buffer[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
  const chunks: Buffer[] = [];
  let left = total;
  while (left > 0) {
    const size = Math.min(left, 1 + (next() % 3000));
    const chunk = Buffer.alloc(size);
    for (let i = 0; i < size; i++) chunk[i] = next() & 0xff;
    chunks.push(chunk);
    left -= size;
  }
  return chunks;
}

const at = '2026-11-22T01:02:03.000Z';

describe('observer server', () => {
  it('gives every observer exactly the published bytes, with frames and events in publish order', async () => {
    server = await startTestObserver();
    const observers = await Promise.all([1, 2, 3].map(() => connectObserver(server!.url)));
    for (const o of observers) await o.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');

    const chunks = randomStream(7, 600_000);
    const expectedMarks: Array<{ kind: string; offset: number }> = [];
    let offset = 0;
    for (const [i, chunk] of chunks.entries()) {
      server.publishPty(chunk);
      offset += chunk.length;
      if (i % 40 === 0) {
        const event: ObserverEvent = { kind: 'iteration', n: i, max: 1000, at };
        server.publishEvent(event);
        expectedMarks.push({ kind: `event:${i}`, offset });
      }
      if (i % 70 === 0) {
        server.publishFrame({ type: 'assistant', n: i });
        expectedMarks.push({ kind: `frame:${i}`, offset });
      }
      // Yield now and then like a pty does, so batches of several sizes are formed.
      if (i % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    server.publishEvent({ kind: 'verdict', checker: 'claude', completed: true, feedback: 'All done.', iteration: 3, at });
    await server.close();

    const published = Buffer.concat(chunks);
    for (const o of observers) {
      await o.closed;
      expect(o.messages[0]).toEqual({ type: 'hello', session: testHello, input: false });
      expect(o.liveBytes().equals(published)).toBe(true);
      // Where each event and frame sits in the byte stream, as the observer saw it.
      const marks: Array<{ kind: string; offset: number }> = [];
      let seen = 0;
      for (const m of o.messages) {
        if (m.type === 'pty' && !m.snapshot) seen += Buffer.from(m.data as string, 'base64').length;
        const event = m.event as ObserverEvent | undefined;
        if (m.type === 'event' && event?.kind === 'iteration') marks.push({ kind: `event:${event.n}`, offset: seen });
        if (m.type === 'frame') marks.push({ kind: `frame:${(m.frame as { n: number }).n}`, offset: seen });
      }
      expect(marks).toEqual(expectedMarks);
      const tail = o.messages.slice(-2);
      expect(tail[0]).toMatchObject({ type: 'event', event: { kind: 'verdict', completed: true, feedback: 'All done.' } });
      expect(tail[1]).toEqual({ type: 'bye' });
    }
  });

  it('replays the events so far to a late joiner, after the screen and before live data', async () => {
    server = await startTestObserver();
    server.publishPty(Buffer.from('first line\r\n'));
    server.publishEvent({ kind: 'phase', phase: 'review', at });
    server.publishEvent({ kind: 'verdict', checker: 'rule', completed: false, feedback: 'tests fail', iteration: 1, at });
    const late = await connectObserver(server.url);
    await late.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
    server.publishPty(Buffer.from('second line\r\n'));
    server.publishEvent({ kind: 'end', exit_code: 0, at });
    await late.waitFor((m) => m.type === 'event' && (m.event as ObserverEvent).kind === 'end', 'the end event');

    expect(late.messages.map((m) => (m.type === 'event' ? (m.event as ObserverEvent).kind : m.type))).toEqual([
      'hello',
      'pty',
      'phase',
      'verdict',
      'pty',
      'end',
    ]);
    expect(late.snapshot()?.toString()).toContain('first line');
    expect(late.liveBytes().toString()).toBe('second line\r\n');
  });

  it('sends hello again when the session id or the user terminal size changes', async () => {
    server = await startTestObserver();
    const o = await connectObserver(server.url);
    server.setSession('abc-123');
    server.resize(100, 30);
    await o.waitFor((m) => m.type === 'hello' && (m.session as { cols: number }).cols === 100, 'the resized hello');
    const hellos = o.messages.filter((m) => m.type === 'hello').map((m) => m.session);
    expect(hellos.at(-1)).toMatchObject({ session_id: 'abc-123', cols: 100, rows: 30 });
  });

  it('refuses a wrong or missing token with HTTP 401, and accepts a Bearer header', async () => {
    server = await startTestObserver({ token: 'sesame' });
    const base = wsUrl(server.url).replace(/\?.*$/, '');
    expect(await upgradeStatus(base)).toBe(401);
    expect(await upgradeStatus(`${base}?token=sesam`)).toBe(401);
    expect(await upgradeStatus(`${base}?token=sesame-and-more`)).toBe(401);
    expect(await upgradeStatus(base, { headers: { Authorization: 'Bearer nope' } })).toBe(401);
    const bearer = await connectObserver(base, { headers: { Authorization: 'Bearer sesame' } });
    await bearer.waitFor((m) => m.type === 'hello', 'hello');
    bearer.ws.close();
  });

  it('a flood of wrong tokens costs one log line, and the count at close', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => warnings.push(message) };
    server = await startTestObserver({ token: 'sesame', logger });
    const base = wsUrl(server.url).replace(/\?.*$/, '');
    for (let i = 0; i < 200; i++) expect(await upgradeStatus(`${base}?token=guess-${i}`)).toBe(401);
    expect(warnings).toEqual(['observer: refused a connection without the right token']);
    await server.close();
    expect(warnings).toEqual(['observer: refused a connection without the right token', 'observer: refused 199 more connections without the right token']);
  });

  it('accepts only its own Host (the listening address, its loopback names, observer.allowed_hosts) and, when sent, its own page as Origin', async () => {
    server = await startTestObserver({ token: 'sesame', allowedHosts: ['tunnel.example:9000', 'proxy.example'] });
    const port = Number(new URL(server.url).port);
    const url = `ws://127.0.0.1:${port}/?token=sesame`;
    const status = (headers: Record<string, string>) => upgradeStatus(url, { headers });
    // DNS rebinding: another name pointed at 127.0.0.1 reaches the socket with its own Host.
    expect(await status({ Host: `rebound.example:${port}` })).toBe(403);
    expect(await status({ Host: `127.0.0.1:${port + 1}` })).toBe(403);
    expect(await status({ Host: 'tunnel.example:9001' })).toBe(403);
    // A page on another origin, even with the token in hand, and the opaque origin of a sandboxed frame.
    expect(await status({ Origin: 'http://evil.example' })).toBe(403);
    expect(await status({ Origin: `http://rebound.example:${port}` })).toBe(403);
    expect(await status({ Origin: 'null' })).toBe(403);
    for (const headers of <Array<Record<string, string>>>[
      {}, // no Origin: ccc observe, curl
      { Origin: `http://127.0.0.1:${port}` },
      { Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
      { Host: `[::1]:${port}` },
      { Host: 'tunnel.example:9000', Origin: 'http://tunnel.example:9000' },
      { Host: 'proxy.example', Origin: 'https://proxy.example' },
    ]) {
      const observer = await connectObserver(url, { headers });
      await observer.waitFor((m) => m.type === 'hello', `hello with ${JSON.stringify(headers)}`);
      observer.ws.close();
      await observer.closed;
    }
  });

  it('foreign Hosts and Origins cost a log line each kind at most once a minute, and the counts at close', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => warnings.push(message) };
    server = await startTestObserver({ token: 'sesame', logger });
    const port = Number(new URL(server.url).port);
    const url = `ws://127.0.0.1:${port}/?token=sesame`;
    for (let i = 0; i < 50; i++) {
      expect(await upgradeStatus(url, { headers: { Host: `rebound-${i}.example:${port}` } })).toBe(403);
      expect(await upgradeStatus(url, { headers: { Origin: `http://evil-${i}.example` } })).toBe(403);
    }
    expect(warnings).toEqual([
      'observer: refused a connection naming another host (observer.host, observer.allowed_hosts)',
      "observer: refused a connection from another origin than the observer's page",
    ]);
    await server.close();
    expect(warnings.slice(2).sort()).toEqual([
      "observer: refused 49 more connections from another origin than the observer's page",
      'observer: refused 49 more connections naming another host (observer.host, observer.allowed_hosts)',
    ]);
  });

  it('observers connecting and dropping by the hundred cost a few log lines, not one each', async () => {
    const lines: string[] = [];
    const record = (message: string) => lines.push(message);
    server = await startTestObserver({ logger: { debug() {}, info: record, warn: record, error: record } });
    server.publishPty(Buffer.from('some screen\r\n'));
    for (let round = 0; round < 10; round++) {
      const observers = await Promise.all(Array.from({ length: 10 }, () => connectObserver(server!.url)));
      for (const observer of observers) await observer.waitFor((m) => m.type === 'hello', 'hello');
      // Half leave before their snapshot, half after it.
      for (const [i, observer] of observers.entries()) {
        if (i % 2 === 1) await observer.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
        observer.ws.terminate();
      }
      await Promise.all(observers.map((o) => o.closed));
    }
    await server.close();
    // The last leaves may still be on their way to the server when it closes.
    expect(lines).toEqual(['observer: joined', expect.stringMatching(/^observer: 99 joined, (9\d|100) left since the last line$/)]);
  });

  it('says how to fix a port that is taken', async () => {
    server = await startTestObserver();
    const port = Number(new URL(server.url).port);
    await expect(startTestObserver({ port })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining(`Cannot start the observer on 127.0.0.1:${port}: port ${port} is in use; choose another with --observe=<port>`),
    });
  });

  it('generates a 64-hex-digit token when none is configured', async () => {
    server = await startTestObserver();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  });

  it('closes an observer that sends garbage with 1008 and a reason, and the others go on', async () => {
    server = await startTestObserver();
    const good = await connectObserver(server.url);
    const garbage = [
      { send: 'not json at all', reason: /not JSON/ },
      { send: JSON.stringify({ type: 'resize', cols: 1, rows: 1 }), reason: /unknown message type/ },
      { send: JSON.stringify([1, 2]), reason: /JSON object/ },
      { send: JSON.stringify({ type: 'input', data: 42 }), reason: /string "data"/ },
      { send: JSON.stringify({ type: 'input', data: 'x'.repeat(70_000) }), reason: /too large/ },
      { send: Buffer.from([1, 2, 3]), reason: /binary/ },
    ];
    for (const g of garbage) {
      const bad = await connectObserver(server.url);
      await bad.waitFor((m) => m.type === 'pty', 'the snapshot');
      bad.ws.send(g.send);
      const closed = await bad.closed;
      expect(closed.code).toBe(1008);
      expect(closed.reason).toMatch(g.reason);
    }
    server.publishPty(Buffer.from('still here'));
    server.publishEvent({ kind: 'iteration', n: 2, max: 5, at });
    await good.waitFor((m) => m.type === 'event', 'the event after the garbage');
    expect(good.liveBytes().toString()).toBe('still here');
    expect(good.ws.readyState).toBe(good.ws.OPEN);
  });

  it('never passes input from a read-only observer on; passes it when input is allowed', async () => {
    for (const allowInput of [false, true]) {
      server = await startTestObserver({ allowInput });
      const received: string[] = [];
      const off = server.onInput((data) => received.push(data.toString('utf8')));
      const o = await connectObserver(server.url);
      const hello = await o.waitFor((m) => m.type === 'hello', 'hello');
      expect(hello.input).toBe(allowInput);
      o.ws.send(JSON.stringify({ type: 'input', data: 'rm -rf ~\r' }));
      // Messages on one socket are handled in order: once this one closes it, the input was seen.
      o.ws.send('garbage');
      await o.closed;
      expect(received).toEqual(allowInput ? ['rm -rf ~\r'] : []);
      off();
      await server.close();
      server = undefined;
    }
  });

  it('refuses observers past max_observers with a clear close reason', async () => {
    server = await startTestObserver({ maxObservers: 2 });
    const a = await connectObserver(server.url);
    await connectObserver(server.url);
    const third = await connectObserver(server.url);
    const closed = await third.closed;
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(/too many observers \(max 2\)/);
    // A place frees up when one leaves.
    // The server may see the close after the client does: try until a joiner gets its screen.
    a.ws.close();
    await a.closed;
    await vi.waitFor(
      async () => {
        const fourth = await connectObserver(server!.url);
        await fourth.waitFor((m) => m.type === 'pty', 'the snapshot'); // throws when refused
      },
      { timeout: 10_000 },
    );
  });

  it('closes every observer with a reason when output was lost on its way to them, and a reconnect gets a fresh screen', async () => {
    server = await startTestObserver({});
    const observers = await Promise.all([1, 2].map(() => connectObserver(server!.url)));
    for (const o of observers) await o.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
    server.publishPty(Buffer.from('before the gap'));
    server.outputGap(123456);
    for (const o of observers) {
      const closed = await o.closed;
      expect(closed.code).toBe(4000);
      expect(closed.reason).toBe('observers fell behind the output (123456 bytes missed); reconnect for a fresh screen');
      expect(o.liveBytes().toString()).toBe('before the gap');
    }
    server.publishPty(Buffer.from(' and after'));
    const again = await connectObserver(server.url);
    const snapshot = await again.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
    expect(Buffer.from(String((snapshot as unknown as { data: string }).data), 'base64').toString()).toContain('and after');
    again.ws.close();
  });

  it('asks an output source to copy only while someone watches, and shows a joiner the tail it kept', async () => {
    server = await startTestObserver({ awaitOutputSource: true });
    const calls: boolean[] = [];
    let sendTail!: () => void;
    const tailAsked = new Promise<void>((resolve) => (sendTail = resolve));
    const first = await connectObserver(server.url); // joins before the source exists: it waits for it
    server.setOutputSource({
      watch: async (on) => {
        calls.push(on);
        if (!on) return;
        await tailAsked; // the source answers when the test says, after the joiner is waiting
        server!.replaceTail(Buffer.from('\x1b[2J\x1b[Hscreen drawn while nobody watched'));
      },
    });
    await expect.poll(() => calls).toEqual([true]);
    sendTail();
    const snapshot = await first.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
    expect(Buffer.from(String((snapshot as unknown as { data: string }).data), 'base64').toString()).toContain('screen drawn while nobody watched');
    server.publishPty(Buffer.from(' live'));
    await first.waitFor((m) => m.type === 'pty' && m.snapshot !== true, 'live output');
    expect(first.liveBytes().toString()).toBe(' live');
    const second = await connectObserver(server.url);
    await second.waitFor((m) => m.type === 'pty' && m.snapshot === true, 'the snapshot');
    expect(calls).toEqual([true]); // already watching: no second request
    first.ws.close();
    second.ws.close();
    await Promise.all([first.closed, second.closed]);
    // It keeps copying a moment after the last one left (observers coming and going).
    await expect.poll(() => calls, { timeout: 10_000 }).toEqual([true, false]);
  });

  it('drops an observer whose queue passes the bound, with a reason, while the others keep everything', async () => {
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (message: string, fields?: Record<string, unknown>) => warnings.push(`${message} ${String(fields?.reason)}`),
    };
    server = await startTestObserver({ maxQueueBytes: 256 * 1024, logger });
    const reader = await connectObserver(server.url);
    const stuck = await connectObserver(server.url);
    await stuck.waitFor((m) => m.type === 'pty', 'the snapshot');
    await reader.waitFor((m) => m.type === 'pty', 'the snapshot');
    // The client stops reading from its socket: the server's send buffer has to fill up.
    (stuck.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // Every chunk differs, so a pooled message reused while a write of it was pending would show.
    const chunks = randomStream(11, 16 * 1024 * 1024);
    let sent = 0;
    for (const [i, chunk] of chunks.entries()) {
      server.publishPty(chunk);
      sent += chunk.length;
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    server.publishEvent({ kind: 'end', exit_code: 0, at });
    await reader.waitFor((m) => m.type === 'event', 'the end event');
    expect(reader.liveBytes().equals(Buffer.concat(chunks))).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^observer: dropped observer fell behind \(over 262144 bytes queued\)/)]);
    (stuck.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await stuck.closed;
    expect([4000, 1006]).toContain(closed.code);
    expect(stuck.liveBytes().length).toBeLessThan(sent);
  });
});
