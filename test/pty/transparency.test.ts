/**
 * Byte transparency of the proxy, seen from the user's terminal: the agent's output arrives as the
 * agent wrote it to its own pty, as it would in a direct terminal. The agent is a shell stand-in
 * (CCC_CLAUDE) that switches its pty to raw mode, output processing off, as curses programs do
 * when they move the cursor down with a bare `\n`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { startPty, type PtyHarness } from '../support/pty-harness.js';

describe('ccc --supervisor passes the agent bytes unchanged', () => {
  let dir: string;
  let h: PtyHarness | undefined;
  afterEach(() => {
    h?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a bare \\n from an agent with output processing off is not turned into \\r\\n', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-transparency-'));
    fs.writeFileSync(path.join(dir, 'SUPERVISOR.md'), 'test\n');
    const agent = path.join(dir, 'agent.sh');
    // Arguments are ignored: ccc puts --settings and --session-id first.
    fs.writeFileSync(agent, "#!/bin/sh\nstty raw -echo -opost\nprintf 'BEGIN\\nline one\\nline two\\nEND'\nsleep 0.3\n", { mode: 0o755 });
    const env = { ...process.env, CCC_CLAUDE: agent, CCC_CONFIG_DIR: path.join(dir, 'config'), CCC_SUPERVISOR_PROMPT_PATH: path.join(dir, 'SUPERVISOR.md') };
    delete env.CCC_SUPERVISED;
    delete env.CCC_SUPERVISOR_HOOK;
    h = startPty(process.execPath, [cccBin, '--supervisor'], { cwd: dir, env });
    expect((await h.exited).exitCode).toBe(0);
    const out = h.output().toString('latin1');
    expect(out).toContain('BEGIN\nline one\nline two\nEND');
  }, 60_000);
});
