/**
 * The one way a test sets up what it drives: vitest fixtures (`test.extend`) that make the scripted
 * model server, the private claude world and the terminal a test asks for, and tear them down
 * after it, whatever it did (ptys killed, servers closed, worlds removed with whatever still runs
 * in them). `rig` is per test, `fileRig` the same for a whole file; `browser` is one Chromium per file, started on first use: each
 * `browser.newPage()` opens its own context (no cookie or storage shared), closed after its test.
 *
 *   import { it } from '../support/fixtures.js';
 *   it('...', async ({ rig }) => {
 *     const { server, world } = await rig.start((r) => (r.kind === 'review' ? ... : ...));
 *     const h = await rig.supervised(world);
 *   });
 */
import type { Browser } from 'playwright-core';
import { test as base } from 'vitest';
import { writeSupervisorPrompt } from './ccc-run.js';
import { launchChromium } from './chromium.js';
import { cccBin, makeClaudeWorld, type ClaudeWorld } from './claude-env.js';
import { startModelServer, type ModelServer, type Scenario } from './model-server.js';
import { startPty, type PtyHarness } from './pty-harness.js';
import { needs } from './tools.js';

interface WorldOptions {
  /** The scripted server claude talks to (ANTHROPIC_BASE_URL). */
  server?: ModelServer;
  /** Another address for claude's model instead (one nothing listens on, say). */
  modelUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Writes the test's SUPERVISOR.md into the project (the default text, or this one). */
  supervisor?: boolean | string;
}

export interface Rig {
  /** The scripted model server answering by `scenario` (and claude's background requests by `options.background`); closed after the test. */
  server(scenario: Scenario, options?: { background?: Scenario }): Promise<ModelServer>;
  /** A private claude world (HOME, project); removed after the test, with every process still running in it. */
  world(options?: WorldOptions): ClaudeWorld;
  /** A server and a world pointed at it, with SUPERVISOR.md written: what most claude tests start from. */
  start(scenario: Scenario, options?: Omit<WorldOptions, 'server'>): Promise<{ server: ModelServer; world: ClaudeWorld }>;
  /** A program in a real pty; killed after the test. Detachable (`startJobShell(options, rig.pty)`). */
  pty(this: void, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number }): PtyHarness;
  /** `ccc --supervisor ...args` in a real pty in `world`, once claude's prompt shows. */
  supervised(world: ClaudeWorld, args?: string[], options?: { env?: NodeJS.ProcessEnv }): Promise<PtyHarness>;
  /** All of it for an interactive test: `start`, then `prepare(world)`, then `supervised`. */
  launch(
    scenario: Scenario,
    options?: { args?: string[]; prepare?(world: ClaudeWorld): void },
  ): Promise<{ server: ModelServer; world: ClaudeWorld; h: PtyHarness }>;
}

function makeRig(): { rig: Rig; teardown: () => Promise<void> } {
  const ptys: PtyHarness[] = [];
  const servers: ModelServer[] = [];
  const worlds: ClaudeWorld[] = [];
  const rig: Rig = {
    async server(scenario, options) {
      const server = await startModelServer(scenario, options);
      servers.push(server);
      return server;
    },
    world(options = {}) {
      const world = makeClaudeWorld({ modelUrl: options.server?.url ?? options.modelUrl, env: options.env });
      worlds.push(world);
      if (options.supervisor) writeSupervisorPrompt(world, ...(typeof options.supervisor === 'string' ? [options.supervisor] : []));
      return world;
    },
    async start(scenario, options = {}) {
      const server = await rig.server(scenario);
      return { server, world: rig.world({ supervisor: true, ...options, server }) };
    },
    pty(command, args, options) {
      const h = startPty(command, args, options);
      ptys.push(h);
      return h;
    },
    async supervised(world, args = [], options = {}) {
      const h = rig.pty(process.execPath, [cccBin, '--supervisor', ...args], { cwd: world.cwd, env: { ...world.env, ...options.env } });
      await h.waitForScreen(/❯/, 60_000);
      return h;
    },
    async launch(scenario, options = {}) {
      const { server, world } = await rig.start(scenario);
      options.prepare?.(world);
      return { server, world, h: await rig.supervised(world, options.args) };
    },
  };
  return {
    rig,
    // The terminals first (what they run goes), then the servers, then the worlds.
    teardown: async () => {
      for (const h of ptys) h.kill();
      await Promise.all(servers.map((server) => server.close()));
      for (const world of worlds) world.cleanup();
    },
  };
}

interface SharedChromium {
  get(): Promise<Browser>;
}

export const it = base.extend<{ rig: Rig; fileRig: Rig; browser: Browser; chromium: SharedChromium }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a function uses from its first parameter
  rig: async ({}, use) => {
    const { rig, teardown } = makeRig();
    try {
      await use(rig);
    } finally {
      await teardown();
    }
  },
  // One rig for every test of a file, torn down after the file: for a file whose tests read what a
  // few expensive runs left (their logs, the server's requests). A fixture of the file's own that
  // makes those runs asks for it (`test.extend({ x: [async ({ fileRig }, use) => …, { scope: 'file' }] })`).
  fileRig: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => {
      const { rig, teardown } = makeRig();
      try {
        await use(rig);
      } finally {
        await teardown();
      }
    },
    { scope: 'file' },
  ],
  chromium: [
    // eslint-disable-next-line no-empty-pattern -- as above
    async ({}, use) => {
      let launched: Promise<Browser> | undefined;
      await use({ get: () => (launched ??= launchChromium()) });
      if (launched) await (await launched.catch(() => undefined))?.close();
    },
    { scope: 'file' },
  ],
  browser: async ({ chromium, skip }, use) => {
    needs({ skip }, 'chromium');
    const browser = await chromium.get();
    await use(browser);
    // What the test opened goes with it: the next test starts from a browser with no page.
    await Promise.all(browser.contexts().map((context) => context.close()));
  },
});

/** The fixtures, for a hook that reads one: `beforeEach<Fixtures>(({ browser }) => ...)`. */
export type Fixtures = { rig: Rig; browser: Browser };
