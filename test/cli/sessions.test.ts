/**
 * `ccc sessions` through the built CLI when nothing (or only a crashed session or server) is
 * running; the real running session is in test/observer/observe-screen.test.ts, the real running
 * `ccc mcp` in test/mcp/page-address.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

const ccc = (args: string[]) => runProcess(process.execPath, [cccBin, ...args], { cwd: t.project, env: t.env });

describe('ccc sessions', () => {
  it('says so when none runs; a file left by a session whose process is gone is not listed', async () => {
    const none = await ccc(['sessions']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('No supervised session is running.\n');

    // A pid that cannot be alive (above the kernel's pid_max on Linux).
    t.write(
      'home/.claude/ccc/sessions/4194305.json',
      JSON.stringify({ pid: 4194305, cwd: '/gone', started_at: '2026-11-22T01:02:03.000Z', command: ['claude'] }),
    );
    t.write(
      'home/.claude/ccc/mcp-servers/4194305.json',
      JSON.stringify({ pid: 4194305, mode: 'supervisor', cwd: '/gone', started_at: '2026-11-22T01:02:03.000Z', page_url: 'http://127.0.0.1:1/?token=x' }),
    );
    const json = await ccc(['sessions', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ sessions: [], mcpServers: [] });
    expect((await ccc(['sessions'])).stdout).toBe('No supervised session is running.\n');
  });
});
