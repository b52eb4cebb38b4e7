/**
 * The interactive launch starts the agent before the rest of the session, and stays
 * correct about it: a TypeScript config still loads (through jiti) and still shapes the launch, a
 * config error still ends the launch with exit 2 before the agent starts, and plugins'
 * onSessionStart still runs, now while the agent runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cccBin, makeClaudeWorld, repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { startPty } from '../support/pty-harness.js';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';

const agent = fileURLToPath(new URL('./fixtures/record-start.sh', import.meta.url));
const indexTs = path.join(repoRoot, 'src', 'index.ts');

describe('interactive launch: the agent first, the config still in charge', () => {
  let world: ClaudeWorld;
  afterEach(() => world?.cleanup());

  function project(configTs: string) {
    world = makeClaudeWorld({ env: { CCC_CLAUDE: agent } });
    writeSupervisorPrompt(world);
    fs.writeFileSync(
      path.join(world.cwd, 'start-plugin.ts'),
      `import fs from 'node:fs';\nimport path from 'node:path';\nimport { defineChecker } from ${JSON.stringify(indexTs)};\n` +
        `export default defineChecker({ name: 'start-marker', onSessionStart: ({ cwd }) => fs.writeFileSync(path.join(cwd, 'session-started'), 'x'), check: () => ({ completed: true, feedback: '' }) });\n`,
    );
    fs.writeFileSync(path.join(world.cwd, 'ccc.config.ts'), configTs);
  }
  const read = (name: string) => fs.readFileSync(path.join(world.cwd, name), 'utf8');
  const exists = (name: string) => fs.existsSync(path.join(world.cwd, name));

  it("a ccc.config.ts shapes the agent's launch, and a plugin's onSessionStart runs while the agent runs", async () => {
    project(`const args: string[] = ['--from-ts-config'];\nexport default { claude: { args }, supervisor: { checkers: ['./start-plugin.ts'] } };\n`);
    // Interactive needs a terminal (without one ccc runs headless): a real pty.
    const h = startPty(process.execPath, [cccBin, '--supervisor'], { cwd: world.cwd, env: world.env });
    try {
      expect((await h.exited).exitCode).toBe(0);
    } finally {
      h.kill();
    }
    expect(h.output().toString('utf8')).toContain('Supervisor mode enabled');
    expect(read('agent-args.txt').split('\n')).toContain('--from-ts-config');
    expect(read('agent-saw-session-start.txt').trim()).toBe('yes');
  });

  it('an invalid value in ccc.config.ts: exit 2 naming the key, and the agent never starts', async () => {
    project(`export default { supervisor: { max_iterations: 0 as number } };\n`);
    const run = await runCcc(world, ['--supervisor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/supervisor\.max_iterations/);
    expect(exists('agent-args.txt')).toBe(false);
  });

  it('a ccc.config.ts that throws while loading: exit 2 naming the file, and the agent never starts', async () => {
    project(`throw new Error('broken config 4711');\n`);
    const run = await runCcc(world, ['--supervisor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ccc\.config\.ts[\s\S]*broken config 4711/);
    expect(exists('agent-args.txt')).toBe(false);
  });
});
