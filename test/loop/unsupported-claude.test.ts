/**
 * A claude ccc cannot supervise (older than the minimum, or a `--version` that names no version) is
 * refused by every kind of run before the first model request: headless and interactive supervised
 * runs and `ccc kanban` with exit 2 and the fix; the standalone Stop hook lets the stop through with
 * a message the user sees (it must never hold up the user's claude). The too-old claude is a real
 * one from the registry: 1.0.100, which has no `--fork-session`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { registryClaude } from '../support/registry-claude.js';
import { MINIMUM_CLAUDE } from '../../src/claude/claude-support.js';

const OLD = '1.0.100';

describe('a claude ccc does not support', () => {
  // The old claude is installed once for the file; each test has its own server and world.
  let oldClaude: string;
  beforeAll(async () => {
    oldClaude = await registryClaude(OLD);
  }, 320_000);
  const setup = (rig: Rig) => rig.start(() => ({ text: 'I am done' }));

  const tooOld = () =>
    new RegExp(
      `claude ${OLD.replace(/\./g, '\\.')} \\(.*\\) is older than ${MINIMUM_CLAUDE.replace(/\./g, '\\.')}, the oldest ccc supports; .*npm install -g @anthropic-ai/claude-code@latest`,
    );

  it('headless: exit 2 naming the version, the minimum and the install line; no request reaches the model', async ({ rig }) => {
    const { server, world } = await setup(rig);
    const run = await runCcc(world, ['--supervisor', '-p', 'write the parser'], { env: { CCC_CLAUDE: oldClaude } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(tooOld());
    expect(run.stderr).not.toContain('Supervisor mode enabled');
    expect(server.requests).toHaveLength(0);
  });

  it('headless, a claude whose --version prints garbage: exit 2, what it printed shown inert', async ({ rig }) => {
    const { server, world } = await setup(rig);
    const garbage = path.join(world.root, 'garbage-claude');
    fs.writeFileSync(garbage, '#!/bin/sh\necho "garbage {not json"\n', { mode: 0o755 });
    const run = await runCcc(world, ['--supervisor', '-p', 'write the parser'], { env: { CCC_CLAUDE: garbage } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot read the version of ${garbage} (\`--version\` printed "garbage {not json")`);
    expect(server.requests).toHaveLength(0);
  });

  it('interactive, in a terminal: exit 2 with the message before the agent starts', async ({ rig }) => {
    const { server, world } = await setup(rig);
    const h = rig.pty(process.execPath, [cccBin, '--supervisor'], { cwd: world.cwd, env: { ...world.env, CCC_CLAUDE: oldClaude } });
    const { exitCode } = await h.exited;
    expect(exitCode).toBe(2);
    expect(h.output().toString('utf8').replace(/\r?\n/g, ' ')).toMatch(tooOld());
    expect(server.requests).toHaveLength(0);
  });

  it('ccc kanban: exit 2 before any agent runs', async ({ rig }) => {
    const { server, world } = await setup(rig);
    fs.mkdirSync(path.join(world.cwd, 'tasks'));
    fs.writeFileSync(path.join(world.cwd, 'tasks', '001-parse.md'), '# Parse\nWrite the parser.\n');
    fs.writeFileSync(path.join(world.cwd, 'kanban.yaml'), 'phase: execute\ncurrent: tasks/001-parse.md\ntasks:\n  - tasks/001-parse.md\n');
    const run = await runCcc(world, ['kanban', 'kanban.yaml'], { env: { CCC_CLAUDE: oldClaude } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(tooOld());
    expect(server.requests).toHaveLength(0);
  });

  it('the standalone Stop hook: the stop goes through unreviewed, the user told why in the TUI and on stderr', async ({ rig }) => {
    const { server, world } = await setup(rig);
    const input = {
      session_id: '0c7d2a5e-2c38-4a52-9a57-5b0d5f1e6a01',
      cwd: world.cwd,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'done',
    };
    const run = await runCcc(world, ['supervisor-hook'], { input: JSON.stringify(input), env: { CCC_CLAUDE: oldClaude } });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(answer.decision).toBeUndefined();
    expect(answer.systemMessage).toMatch(new RegExp(`^ccc: stop not reviewed: ${tooOld().source}`));
    expect(run.stderr).toMatch(new RegExp(`^ccc supervisor-hook: stop not reviewed: ${tooOld().source}.*; stop allowed\\n$`));
    expect(server.requests).toHaveLength(0);
  });
});
