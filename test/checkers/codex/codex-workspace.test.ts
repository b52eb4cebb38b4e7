/**
 * Where the codex reviewer may write, on the real codex: in a throwaway copy
 * (`supervisor.codex.workspace: "copy"`) a runner that must write works, while the project (even
 * under /tmp, named by its absolute path) stays unwritable and unchanged; and where the kernel
 * sandbox cannot start (no user namespace may be created: a real `unshare` with the limit set to
 * 0), ccc refuses to review, naming bubblewrap's own message, unless the user opted in to an
 * unsandboxed review, which then runs in a copy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codexChecker } from '../../../src/checkers/codex/codex-checker.js';
import { runPipeline } from '../../../src/checkers/pipeline.js';
import { isCccError } from '../../../src/errors.js';
import { codexBin, codexEnv, needsCodexSandbox, codexSettings, writeNodeProject } from '../../support/codex-env.js';
import { projectSnapshot } from '../../support/project-snapshot.js';
import { needs } from '../../support/tools.js';
import { startResponsesServer, type ResponsesRequest, type ResponsesReply, type ResponsesServer } from '../../support/responses-server.js';
import { checkContext } from '../check-context.js';

let root: string;
let cwd: string;
let server: ResponsesServer;

beforeAll(needsCodexSandbox, 60_000);
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-codex-')));
  cwd = path.join(root, 'project');
  fs.mkdirSync(cwd);
  fs.mkdirSync(path.join(root, 'home'));
  writeNodeProject(cwd, { addWorks: true });
  fs.writeFileSync(path.join(cwd, 'SUPERVISOR.md'), 'Check the work with tools.');
  // A test that writes a cache next to itself, as coverage tools and some runners do.
  fs.writeFileSync(
    path.join(cwd, 'test', 'cache.test.js'),
    "require('node:test')('writes its cache', () => require('node:fs').writeFileSync('.test-cache', 'x'));\n",
  );
});
afterEach(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function review(commands: string[], settings: Parameters<typeof codexSettings>[1], command = codexBin) {
  server = await startResponsesServer((r: ResponsesRequest): ResponsesReply =>
    r.index === 0 ? { commands } : { verdict: { completed: true, feedback: 'done' } },
  );
  const checker = codexChecker({ promptPath: { path: 'SUPERVISOR.md', fromProject: false }, codex: codexSettings(server.url, { ...settings, command }) });
  const env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), ...codexEnv(path.join(root, 'home'), server.url) };
  return runPipeline([{ checker, timeoutSeconds: 120, reviewer: true }], checkContext(cwd, { env }));
}

/** codex where no user namespace can be made: bubblewrap, its Linux sandbox, cannot start. */
function codexWithoutNamespaces(): string {
  const wrapper = path.join(root, 'codex-no-userns');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexec unshare -U -r sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$@"' ${JSON.stringify(codexBin)} "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

describe('the codex reviewer in a throwaway copy', () => {
  it('its runners write in the copy; the project, named by its path, is refused and unchanged', async () => {
    const before = projectSnapshot(cwd);
    const { verdict } = await review(['npm test', 'touch NOTES.md && ls NOTES.md', `touch ${cwd}/NOTES.md`, 'touch /tmp/ccc-codex-escape'], {
      workspace: 'copy',
    });
    const outputs = server.requests[1]!.toolOutputs;
    expect(outputs[0]).toMatch(/# pass 2/);
    expect(outputs[1]).toMatch(/^NOTES\.md$/m);
    expect(outputs[2]).toMatch(/Read-only file system/);
    expect(outputs[3]).toMatch(/Read-only file system/);
    expect(verdict.evidence).toEqual([{ command: 'npm test', exit_code: 0, scope: 'whole', tests: 2 }]);
    expect(projectSnapshot(cwd)).toEqual(before);
    expect(fs.existsSync('/tmp/ccc-codex-escape')).toBe(false);
  }, 120_000);

  it('in the project, read-only, the same runner cannot write its cache: a failing run, said as such', async () => {
    const before = projectSnapshot(cwd);
    const { verdict } = await review(['npm test'], { workspace: 'project' });
    expect(server.requests[1]!.toolOutputs[0]).toMatch(/not ok 2 - .*cache\.test\.js/);
    // A failing run keeps the test its runner named (node 20 names a failing file by its absolute path).
    expect(verdict.evidence).toEqual([
      { command: 'npm test', exit_code: 1, failed: 1, failures: [expect.stringMatching(/test\/\w+\.test\.js: 'test failed'$/)] },
    ]);
    expect(projectSnapshot(cwd)).toEqual(before);
  }, 120_000);
});

describe('where the kernel sandbox cannot start', () => {
  it('ccc refuses to review, naming what failed; nothing reached the model', async (ctx) => {
    needs(ctx, 'unshare');
    const error: unknown = await review(['npm test'], {}, codexWithoutNamespaces()).catch((e: unknown) => e);
    expect(isCccError(error, 'CHECKER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(
      /codex's sandbox does not work on this machine \(bwrap: Creating new namespace failed.*\), so ccc does not run the codex reviewer/,
    );
    expect((error as Error).message).toMatch(/supervisor\.codex\.unsandboxed: true/);
    expect(server.requests).toHaveLength(0);
  }, 120_000);

  it("unsandboxed by the user's choice: the review runs in a copy, the project unchanged", async (ctx) => {
    needs(ctx, 'unshare');
    const before = projectSnapshot(cwd);
    const { verdict } = await review(['npm test', 'touch NOTES.md && pwd'], { unsandboxed: true }, codexWithoutNamespaces());
    const outputs = server.requests[1]!.toolOutputs;
    expect(outputs[1]).toMatch(/ccc-codex-.*\/project/);
    expect(outputs[1]).not.toContain(cwd);
    expect(verdict.evidence).toEqual([{ command: 'npm test', exit_code: 0, scope: 'whole', tests: 2 }]);
    expect(projectSnapshot(cwd)).toEqual(before);
  }, 120_000);
});
