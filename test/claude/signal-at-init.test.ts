/**
 * Pins what a signal at claude's `system/init` frame does to its first model request (`-p`,
 * stream-json). SIGTERM lets claude send it anyway in most tries: it shuts down gracefully and
 * sends it (20 of 20 on an idle machine), though under load the signal now and then lands before
 * claude has built the request. SIGKILL stops it before it goes out in most tries, not all:
 * claude takes some milliseconds from init to its request, and that is the whole margin (1 or 2
 * of 20 requests got through, measured through ccc by bench/guard-probe.mjs). Neither is a
 * guarantee, so each is pinned as "most". The reviewer's guard probe relies on the second
 * (src/checkers/reviewer/guard-probe.ts): an unguarded review is SIGKILLed at init, and its first
 * request can still reach the model, though no tool ever runs.
 */
import { spawn } from 'node:child_process';
import { describe, expect, vi } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';

describe("a signal at claude's init frame", () => {
  /** Runs `claude -p` (in a world and with a server of its own) and sends `signal` the moment its init frame arrives; the requests that reached the model server. */
  async function signalAtInit(rig: Rig, signal: NodeJS.Signals): Promise<number> {
    const { server, world } = await rig.start(() => ({ text: 'hello' }), { supervisor: false });
    const child = spawn(claudeBin, ['-p', '--output-format', 'stream-json', '--verbose'], { cwd: world.cwd, env: world.env });
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (buffered.includes('"subtype":"init"')) child.kill(signal);
    });
    child.stdin.end('say hello');
    await new Promise((resolve) => child.on('close', resolve));
    // Every connection claude opened is gone: a request it completed is recorded by then.
    await vi.waitFor(() => expect(server.connections()).toBe(0));
    return server.requests.filter((r) => r.kind !== 'background').length;
  }

  it('SIGTERM: the first request still reaches the model, in most tries', async ({ rig }) => {
    const reached: number[] = [];
    for (let i = 0; i < 5; i++) reached.push(await signalAtInit(rig, 'SIGTERM'));
    expect(reached.filter((n) => n === 1).length, `requests per try: ${reached.join(', ')}`).toBeGreaterThanOrEqual(3);
  });

  it('SIGKILL: no request reaches the model, in most tries', async ({ rig }) => {
    const reached: number[] = [];
    for (let i = 0; i < 5; i++) reached.push(await signalAtInit(rig, 'SIGKILL'));
    expect(reached.filter((n) => n === 0).length, `requests per try: ${reached.join(', ')}`).toBeGreaterThanOrEqual(3);
  });
});
