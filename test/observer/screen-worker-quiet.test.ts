/**
 * The screen worker's stderr is ccc's (the user's terminal under claude's TUI): output xterm.js
 * cannot parse leaves nothing there. xterm.js logs each parse error to the console by default.
 */
import { fork } from 'node:child_process';
import { expect, it } from 'vitest';
import type { MirrorReply, MirrorRequest } from '../../src/observer/screen-worker-protocol.js';

it('bytes xterm.js cannot parse are mirrored without a word on stderr', async () => {
  const worker = fork(new URL('../../src/observer/screen-worker.ts', import.meta.url), [JSON.stringify({ cols: 80, rows: 24, scrollbackLines: 100 })], {
    serialization: 'advanced',
    execArgv: ['--import', 'jiti/register'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  worker.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  try {
    // Every byte value, DEL and C1 among them, and a visible mark after them.
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff)), Buffer.from('\x1b[0m\r\nMARK-4417\r\n')]);
    const send = (message: MirrorRequest) => worker.send(message);
    send({ type: 'write', at: 0, data: bytes });
    const reply = new Promise<MirrorReply>((resolve) => worker.once('message', resolve));
    send({ type: 'snapshot', id: 1, from: bytes.length, maxBytes: 1 << 20 });
    // The snapshot comes once everything before it was parsed.
    expect((await reply).data).toContain('MARK-4417');
    expect(stderr).toBe('');
  } finally {
    worker.kill();
    await exited;
  }
});
