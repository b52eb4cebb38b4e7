/**
 * A config file is code that runs while ccc starts: one whose top-level await never settles, or
 * that calls process.exit, ends the launch with a message naming the file (the built CLI, as a
 * user runs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';

describe('a config file that misbehaves while loading', () => {
  let world: ClaudeWorld;
  afterEach(() => world?.cleanup());

  it('a top-level await that never settles: exit 2 after the bound, naming the file (not a silent exit 13)', async () => {
    world = makeClaudeWorld();
    const file = path.join(world.cwd, 'ccc.config.ts');
    fs.writeFileSync(file, `await new Promise<void>(() => {});\nexport default { supervisor: { max_iterations: 3 } };\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`The config file ${file} did not finish loading within 10s: a top-level await in it never settles`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain('Supervisor mode enabled');
  });

  it('process.exit(9) in a config: the exit code stays, and a message names the file', async () => {
    world = makeClaudeWorld();
    const file = path.join(world.cwd, 'ccc.config.mjs');
    fs.writeFileSync(file, `process.exit(9);\nexport default {};\n`);
    const run = await runCcc(world, ['--supervisor', '-p', 'do it']);
    expect(run.code).toBe(9);
    expect(run.stderr).toBe(
      `ccc: the config file ${file} ended ccc while it was loading (exit code 9; a process.exit call in it?). A config file must only export the configuration.\n`,
    );
  });
});
