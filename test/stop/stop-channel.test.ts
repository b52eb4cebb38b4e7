import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askStopChannel, startStopChannel, type StopChannelServer } from '../../src/stop/stop-channel.js';

describe('the stop channel', () => {
  let server: StopChannelServer | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-chan-'));
  afterEach(async () => server?.close());

  it('answers a hook with the right token, on a 0600 socket', async () => {
    server = await startStopChannel({ dir, onStop: async (input) => `seen:${JSON.parse(input).session_id}` });
    expect(fs.statSync(server.socketPath).mode & 0o777).toBe(0o600);
    expect(await askStopChannel(server.socketPath, server.token, JSON.stringify({ session_id: 'abc' }))).toBe('seen:abc');
  });

  it('refuses a wrong token without calling the handler', async () => {
    let called = false;
    server = await startStopChannel({ dir, onStop: async () => ((called = true), 'x') });
    await expect(askStopChannel(server.socketPath, 'nope', '{}')).rejects.toThrow(/bad token/);
    expect(called).toBe(false);
  });

  it('answers concurrent hooks independently', async () => {
    server = await startStopChannel({ dir, onStop: async (input) => input.toUpperCase() });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((x) => askStopChannel(server!.socketPath, server!.token, x)));
    expect(answers).toEqual(['A', 'B', 'C', 'D']);
  });

  it('a handler that throws answers an empty output (allow) rather than hanging', async () => {
    server = await startStopChannel({
      dir,
      onStop: async () => {
        throw new Error('boom');
      },
    });
    expect(await askStopChannel(server.socketPath, server.token, '{}')).toBe('');
  });
});
