/**
 * An interactive `ccc --supervisor` in a real pty against the scripted model server, for one test:
 * the world, the server and the pty are made by `launch` and torn down after each test.
 */
import { afterEach } from 'vitest';
import { cccBin, makeClaudeWorld, type ClaudeWorld } from './claude-env.js';
import { writeSupervisorPrompt } from './ccc-run.js';
import { startModelServer, type ModelServer, type Scenario } from './model-server.js';
import { startPty, type PtyHarness } from './pty-harness.js';

export interface SupervisedPty {
  server: ModelServer;
  world: ClaudeWorld;
  h: PtyHarness;
}

/** Call in a `describe`: returns `launch`, whose session ends after each test. */
export function supervisedPtyFixture(): {
  launch(scenario: Scenario, options?: { args?: string[]; prepare?(world: ClaudeWorld): void }): Promise<SupervisedPty>;
} {
  let current: Partial<SupervisedPty> = {};
  afterEach(async () => {
    current.h?.kill();
    await current.server?.close();
    current.world?.cleanup();
    current = {};
  });
  return {
    async launch(scenario, options = {}) {
      const server = await startModelServer(scenario);
      const world = makeClaudeWorld({ modelUrl: server.url });
      current = { server, world };
      writeSupervisorPrompt(world);
      options.prepare?.(world);
      const h = startPty(process.execPath, [cccBin, '--supervisor', ...(options.args ?? [])], { cwd: world.cwd, env: world.env });
      current.h = h;
      await h.waitForScreen(/❯/, 60_000);
      return { server, world, h };
    },
  };
}
