/**
 * The check that claude loads the reviewer's guard, on the real claude: it tells a loaded guard from
 * a dropped one without a single request reaching the model, and is made once per set-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { checkGuardLoads, guardCheckArgs, guardLoads } from '../../../src/checkers/reviewer/guard-check.js';
import { reviewerLaunch } from '../../../src/checkers/reviewer/reviewer-launch.js';
import { reviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';
import type { CheckerLogger } from '../../../src/log/checker-logger.js';
import { claudeBin, type ClaudeWorld } from '../../support/claude-env.js';
import { it } from '../../support/fixtures.js';

function recordingLogger(): CheckerLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message), error: () => {} };
}

/** A `claude` that writes a line to `starts` each time it is started, then runs the real one with `extra`. */
function countingClaude(world: ClaudeWorld, extra: string[] = []): { command: string; starts: () => number } {
  const log = path.join(world.root, 'starts');
  const command = path.join(world.root, 'claude-counting');
  fs.writeFileSync(command, `#!/bin/sh\necho start >> '${log}'\nexec '${claudeBin}' ${extra.join(' ')} "$@"\n`, { mode: 0o755 });
  return { command, starts: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0) };
}

function input(world: ClaudeWorld, command: string, claudeArgs: string[] = []) {
  const policy = reviewerPolicy({ root: world.cwd, tests: [], ruleCommands: [], allow: [] });
  const launch = reviewerLaunch({ claudeArgs, cwd: world.cwd, env: world.env, policy });
  return { command, launch, cwd: world.cwd, signal: AbortSignal.timeout(60_000), logger: recordingLogger() };
}

describe("the check that claude loads the reviewer's guard", () => {
  it('is active with the guard loaded, and nothing reaches the model server', async ({ rig }) => {
    const { server, world } = await rig.start(() => ({ text: 'never asked' }));
    const check = input(world, claudeBin, ['--tools', 'Bash', 'Write']);
    expect(await checkGuardLoads(check)).toBe('active');
    expect(server.requests).toEqual([]);
    expect(check.logger.warnings).toEqual([]);
  });

  it.for([
    ['--bare', ['--bare']],
    ['managed disableAllHooks', ['--managed-settings', `'${JSON.stringify({ disableAllHooks: true })}'`]],
  ] as const)('is missing when claude drops the hooks (%s), and nothing reaches the model server', async ([, extra], { rig }) => {
    const { server, world } = await rig.start(() => ({ text: 'never asked' }));
    const claude = countingClaude(world, [...extra]);
    expect(await checkGuardLoads(input(world, claude.command))).toBe('missing');
    expect(claude.starts()).toBe(1);
    expect(server.requests).toEqual([]);
  });

  it('is unknown, with a warning, when claude ends before its probe or init shows', async ({ rig }) => {
    const world = rig.world();
    const gone = path.join(world.root, 'claude-gone');
    fs.writeFileSync(gone, '#!/bin/sh\necho "no claude here" >&2\nexit 3\n', { mode: 0o755 });
    const check = input(world, gone);
    expect(await checkGuardLoads(check)).toBe('unknown');
    expect(check.logger.warnings).toEqual([expect.stringContaining("could not tell whether claude loads the reviewer's guard")]);
  });

  it('is made once per set-up while it says active, and again each time it says missing', async ({ rig }) => {
    const world = rig.world();
    const loaded = countingClaude(world);
    const key = `test-${world.root}`;
    expect(await guardLoads(key, input(world, loaded.command))).toBe('active');
    expect(await guardLoads(key, input(world, loaded.command))).toBe('active');
    expect(loaded.starts()).toBe(1);

    const bareWorld = rig.world();
    const dropped = countingClaude(bareWorld, ['--bare']);
    const bareKey = `test-${bareWorld.root}`;
    expect(await guardLoads(bareKey, input(bareWorld, dropped.command))).toBe('missing');
    expect(await guardLoads(bareKey, input(bareWorld, dropped.command))).toBe('missing');
    expect(dropped.starts()).toBe(2);
  });

  it("gives claude no tools: the check's empty --tools replaces the user's, and takes no other value", () => {
    const args = guardCheckArgs(['--settings', '{}', '-p', '--verbose', '--tools', 'Bash', 'Write', '--model', 'x', '--tools=Read']);
    expect(args).toEqual(['--settings', '{}', '-p', '--tools', '', '--verbose', '--model', 'x']);
  });
});
