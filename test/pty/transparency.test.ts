/**
 * The proxy is byte-transparent: a program under `ccc --supervisor` puts exactly the bytes on the
 * user's terminal that it puts there in a direct pty, and its exit code is ccc's.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { resetSequence } from '../../src/pty/terminal-modes.js';
import { cccBin, repoRoot } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

const writer = path.join(repoRoot, 'test', 'fixtures', 'byte-writer.mjs');

describe('byte transparency', () => {
  // The native relay is the default byte path; CCC_RELAY=off is the Node proxy (no C compiler).
  it.for([
    ['the native relay', {}],
    ['the Node proxy', { CCC_RELAY: 'off' }],
  ] as const)('every byte value, UTF-8, escapes and newlines arrive unchanged, with the agent exit code, through %s', async ([, relayEnv], { rig }) => {
    const world = rig.world({ supervisor: true });
    const direct = rig.pty(writer, [], { cwd: world.cwd, env: world.env });
    expect((await direct.exited).exitCode).toBe(7);
    const viaCcc = rig.pty(process.execPath, [cccBin, '--supervisor'], { cwd: world.cwd, env: { ...world.env, ...relayEnv, CCC_CLAUDE: writer } });
    expect((await viaCcc.exited).exitCode).toBe(7);

    const expected = direct.output();
    const got = viaCcc.output();
    const start = got.indexOf('BEGIN');
    expect(got.subarray(0, start).toString()).toBe('Supervisor mode enabled\r\n');
    const reset = Buffer.from(resetSequence(false));
    expect(got.subarray(got.length - reset.length).equals(reset)).toBe(true);
    expect(got.subarray(start, got.length - reset.length).equals(expected)).toBe(true);
  });
});
