/**
 * How a user reaches the feedback page of a `ccc mcp` whose log they cannot read in full (an MCP
 * client may redact the token): `ccc sessions` lists the running server with its page's address,
 * the address stays the same across restarts on a fixed port, and a question says in the log
 * where it waits. The real built CLI, the SDK's real Client.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cccBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { startMcpProcess, type McpProcess } from './support/mcp-process.js';

let root: string;
const servers: McpProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close().catch(() => {});
  fs.rmSync(root, { recursive: true, force: true });
});

interface Listed {
  sessions: unknown[];
  mcpServers: Array<{ pid: number; mode: string; cwd: string; startedAt: string; pageUrl?: string; healthUrl?: string }>;
}

function setup() {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-page-')));
  const configDir = path.join(root, 'config');
  const env = { PATH: process.env.PATH ?? '', HOME: root, CCC_CONFIG_DIR: configDir };
  const sessions = async (json: boolean) => {
    const run = await runProcess(process.execPath, [cccBin, 'sessions', ...(json ? ['--json'] : [])], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    return run.stdout;
  };
  return {
    configDir,
    start: async (extra: Record<string, string> = {}) => {
      const s = await startMcpProcess({ env: { CCC_CONFIG_DIR: configDir, ...extra } });
      servers.push(s);
      return s;
    },
    listed: async () => JSON.parse(await sessions(true)) as Listed,
    text: () => sessions(false),
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the feedback page address', () => {
  it('ccc sessions lists a running ccc mcp with its page URL, which opens the page; a redacted token does not', async () => {
    const t = setup();
    const server = await t.start();
    const pageUrl = await server.pageUrl();
    const listed = await t.listed();
    expect(listed).toEqual({
      sessions: [],
      mcpServers: [
        {
          pid: server.transport.pid,
          mode: 'supervisor',
          cwd: expect.any(String),
          startedAt: expect.any(String),
          pageUrl,
          healthUrl: `${new URL(pageUrl).origin}/api/health`,
        },
      ],
    });
    const page = await fetch(listed.mcpServers[0]!.pageUrl!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const redacted = await fetch(`${new URL(pageUrl).origin}/?token=[REDACTED]`);
    expect(redacted.status).toBe(401);
    expect(await redacted.json()).toEqual({
      error: 'missing or wrong token: open the address that `ccc sessions` lists for this server (it is also in the ccc mcp log)',
    });

    expect(await t.text()).toBe(
      [
        'No supervised session is running.',
        '',
        `ccc mcp  pid ${server.transport.pid}  (supervisor mode)`,
        `  cwd       ${listed.mcpServers[0]!.cwd}`,
        `  started   ${listed.mcpServers[0]!.startedAt}`,
        `  feedback  ${pageUrl}`,
        '',
      ].join('\n'),
    );
    await server.close();
    servers.splice(0);
    await expect.poll(async () => (await t.listed()).mcpServers, { timeout: 20_000 }).toEqual([]);
  });

  it('a question arriving says in the log where it waits, without the token, and how to get the full address', async () => {
    const t = setup();
    const server = await t.start();
    const pageUrl = new URL(await server.pageUrl());
    const pending = server.callJson('collect_feedback', { question: 'Which port?', timeout_seconds: 60 });
    await expect.poll(() => server.stderr(), { timeout: 30_000 }).toContain('a question is waiting for your answer');
    const line = server
      .stderr()
      .split('\n')
      .find((l) => l.includes('a question is waiting'))!;
    expect(line).toContain(
      `a question is waiting for your answer on the feedback page ${pageUrl.origin}/ (its address with the access token: run \`ccc sessions\`)`,
    );
    expect(line).not.toContain(pageUrl.searchParams.get('token')!);
    const token = pageUrl.searchParams.get('token')!;
    const questions = (await (await fetch(`${pageUrl.origin}/api/questions?token=${token}`)).json()) as { questions: Array<{ id: string }> };
    await fetch(`${pageUrl.origin}/api/answer?token=${token}`, { method: 'POST', body: JSON.stringify({ id: questions.questions[0]!.id, answer: '8080' }) });
    expect(await pending).toMatchObject({ answered: true, answer: '8080' });
  });

  it('is the same address after a restart on a fixed port; a killed server is not listed', async () => {
    const t = setup();
    const port = await freePort();
    const first = await t.start({ CCC_MCP_HTTP_PORT: String(port) });
    const url = await first.pageUrl();
    expect(new URL(url).port).toBe(String(port));
    await first.close();
    servers.splice(0);
    await expect.poll(async () => (await t.listed()).mcpServers, { timeout: 20_000 }).toEqual([]);

    const second = await t.start({ CCC_MCP_HTTP_PORT: String(port) });
    expect(await second.pageUrl()).toBe(url);
    expect(fs.statSync(path.join(t.configDir, 'ccc', 'mcp-page-token')).mode & 0o777).toBe(0o600);
    expect((await t.listed()).mcpServers.map((s) => s.pageUrl)).toEqual([url]);

    const pid = second.transport.pid!;
    process.kill(pid, 'SIGKILL');
    await expect.poll(async () => (await t.listed()).mcpServers, { timeout: 20_000 }).toEqual([]);
    // Its record is still there (nothing could remove it): listed by nobody, removed by the next server.
    expect(fs.readdirSync(path.join(t.configDir, 'ccc', 'mcp-servers'))).toEqual([`${pid}.json`]);
  });
});
