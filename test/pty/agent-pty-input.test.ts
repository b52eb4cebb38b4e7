/**
 * Input to the agent goes straight to the pty master (no thread-pool hop). These tests hold the
 * agent's side still so the pty's input buffer fills up: every byte must still arrive, in order,
 * once the agent reads; and writes after the agent is gone must be harmless.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnAgentPty, type AgentPty } from '../../src/pty/agent-pty.js';
import { repoRoot } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';

describe('agent pty input', () => {
  let dir: string;
  let agent: AgentPty | undefined;
  afterEach(() => {
    agent?.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `ready` resolves once the script has printed READY (so its `stty` before that has run). */
  function start(script: string): { exited: Promise<number>; ready: Promise<void> } {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-pty-input-'));
    agent = spawnAgentPty({ command: '/bin/sh', args: ['-c', script], cwd: dir, env: process.env, cols: 80, rows: 24 });
    let output = '';
    const ready = new Promise<void>((resolve) =>
      agent!.onData((chunk) => {
        output += chunk.toString('latin1');
        if (output.includes('READY')) resolve();
      }),
    );
    return { exited: new Promise((resolve) => agent!.onExit((e) => resolve(e.exitCode))), ready };
  }

  it('delivers a paste far larger than the pty buffer, in order, to an agent that reads late', async () => {
    // Raw mode, so the bytes arrive as sent; the agent sleeps first, so the writes hit a full buffer.
    const { exited, ready } = start('stty raw -echo; echo READY; sleep 1; timeout --foreground 20 head -c 1000000 > received');
    await ready;
    const expected = Buffer.alloc(1_000_000);
    for (let i = 0; i < expected.length; i++) expected[i] = 0x20 + (i % 90);
    for (let offset = 0; offset < expected.length; offset += 4096) agent!.write(expected.subarray(offset, offset + 4096));
    expect(await exited).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'received')).equals(expected)).toBe(true);
  }, 60_000);

  it('keeps strings and Buffers in the order written', async () => {
    const { exited, ready } = start('stty raw -echo; echo READY; head -c 9 > received');
    await ready;
    agent!.write('abc');
    agent!.write(Buffer.from('déf'));
    agent!.write('gh');
    expect(await exited).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'received'), 'utf8')).toBe('abcdéfgh');
  }, 30_000);

  it('delivers bytes that are not UTF-8 unchanged (node-pty writes a Buffer as it is)', async () => {
    const { exited } = start('stty raw -echo; head -c 6 > received');
    const bytes = Buffer.from([0xff, 0xfe, 0x80, 0x41, 0xc3, 0x28]);
    agent!.write(bytes);
    expect(await exited).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'received')).equals(bytes)).toBe(true);
  }, 30_000);

  it("an agent that never reads its input does not stop ccc's event loop, and its exit is seen with the input still unread", async () => {
    // In its own process: with a pty write that spins on a full buffer, that process's timers never fire again and it
    // never exits (node-pty wrote through Node's tty stream, whose writes retry EAGAIN in place), which a test in this
    // process could not even time out.
    const script = [
      `import { spawnAgentPty } from ${JSON.stringify(path.join(repoRoot, 'dist/pty/agent-pty.js'))};`,
      "const agent = spawnAgentPty({ command: '/bin/sh', args: ['-c', 'stty raw -echo; echo READY; sleep 2'], cwd: '/', env: process.env, cols: 80, rows: 24 });",
      'let ready = false;',
      "agent.onData((d) => { if (!ready && d.toString().includes('READY')) { ready = true; for (let i = 0; i < 64; i++) agent.write(Buffer.alloc(4096, 0x41)); setTimeout(() => console.log('TIMER'), 200); } });",
      "agent.onExit((e) => { console.log('EXIT ' + e.exitCode); process.exit(0); });",
    ].join('\n');
    const run = await runProcess(process.execPath, ['--input-type=module', '-e', script], { timeoutMs: 30_000 });
    expect([run.code, run.stdout]).toEqual([0, 'TIMER\nEXIT 0\n']);
  }, 60_000);

  it('takes writes without throwing while the agent exits and after it has', async () => {
    // Writes keep coming across the exit: once the agent's side is closed the master answers EIO.
    const { exited } = start('stty raw -echo; head -c 10 >/dev/null; exit 3');
    let done = false;
    let writes = 0;
    const pump = () => {
      agent!.write('keystroke\r');
      writes += 1;
      if (!done) setImmediate(pump);
    };
    pump();
    expect(await exited).toBe(3);
    done = true;
    expect(() => agent!.write('too late\r')).not.toThrow();
    expect(writes).toBeGreaterThan(1);
  }, 30_000);
});
