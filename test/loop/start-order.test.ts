/**
 * The interactive launch starts the agent before the rest of the session, and stays
 * correct about it: a TypeScript config still loads (through jiti) and still shapes the launch, a
 * config error still ends the launch with exit 2 before the agent starts, and plugins'
 * onSessionStart still runs, now while the agent runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { cccBin, repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';

const agent = fileURLToPath(new URL('./fixtures/record-start.sh', import.meta.url));
const indexTs = path.join(repoRoot, 'src', 'index.ts');

describe('interactive launch: the agent first, the config still in charge', () => {
  function project(rig: Rig, configTs: string) {
    const world = rig.world({ env: { CCC_CLAUDE: agent } });
    writeSupervisorPrompt(world);
    fs.writeFileSync(
      path.join(world.cwd, 'start-plugin.ts'),
      `import fs from 'node:fs';\nimport path from 'node:path';\nimport { defineChecker } from ${JSON.stringify(indexTs)};\n` +
        `export default defineChecker({ name: 'start-marker', onSessionStart: ({ cwd }) => fs.writeFileSync(path.join(cwd, 'session-started'), 'x'), check: () => ({ completed: true, feedback: '' }) });\n`,
    );
    fs.writeFileSync(path.join(world.cwd, 'ccc.config.ts'), configTs);
    return world;
  }
  const read = (world: ClaudeWorld, name: string) => fs.readFileSync(path.join(world.cwd, name), 'utf8');
  const exists = (world: ClaudeWorld, name: string) => fs.existsSync(path.join(world.cwd, name));

  it("a ccc.config.ts shapes the agent's launch, and a plugin's onSessionStart runs while the agent runs", async ({ rig }) => {
    const world = project(
      rig,
      `const args: string[] = ['--from-ts-config'];\nexport default { claude: { args }, supervisor: { checkers: ['./start-plugin.ts'] } };\n`,
    );
    // Interactive needs a terminal (without one ccc runs headless): a real pty.
    const h = rig.pty(process.execPath, [cccBin, '--supervisor'], { cwd: world.cwd, env: world.env });
    try {
      expect((await h.exited).exitCode).toBe(0);
    } finally {
      h.kill();
    }
    expect(h.output().toString('utf8')).toContain('Supervisor mode enabled');
    expect(read(world, 'agent-args.txt').split('\n')).toContain('--from-ts-config');
    expect(read(world, 'agent-saw-session-start.txt').trim()).toBe('yes');
  });

  it('an invalid value in ccc.config.ts: exit 2 naming the key, and the agent never starts', async ({ rig }) => {
    const world = project(rig, `export default { supervisor: { max_iterations: 0 as number } };\n`);
    const run = await runCcc(world, ['--supervisor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/supervisor\.max_iterations/);
    expect(exists(world, 'agent-args.txt')).toBe(false);
  });

  it('a ccc.config.ts that throws while loading: exit 2 naming the file, and the agent never starts', async ({ rig }) => {
    const world = project(rig, `throw new Error('broken config 4711');\n`);
    const run = await runCcc(world, ['--supervisor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ccc\.config\.ts[\s\S]*broken config 4711/);
    expect(exists(world, 'agent-args.txt')).toBe(false);
  });
});
