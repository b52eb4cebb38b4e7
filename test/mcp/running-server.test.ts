/** The records of running `ccc mcp` servers that `ccc sessions` reads, on real files. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_SERVERS_DIR, readRunningMcpServers, registerMcpServer } from '../../src/mcp/running-server.js';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function setup() {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-mcp-rec-')));
  return { configDir: root, dir: path.join(root, 'ccc', MCP_SERVERS_DIR) };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('close', r));
  return child.pid!;
}

const record = {
  pid: process.pid,
  mode: 'supervisor' as const,
  cwd: '/project',
  page_url: 'http://127.0.0.1:4477/?token=abc',
  health_url: 'http://127.0.0.1:4477/api/health',
};

describe('running ccc mcp records', () => {
  it('are private, listed while the server runs, and gone when it removes its record', async () => {
    const t = setup();
    const registration = await registerMcpServer(t.configDir, record);
    const file = path.join(t.dir, `${process.pid}.json`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(t.dir).mode & 0o777).toBe(0o700);
    expect(await readRunningMcpServers(t.configDir)).toEqual({ servers: [{ ...record, started_at: expect.any(String) }], problems: [] });
    await registration.remove();
    expect(fs.existsSync(file)).toBe(false);
    expect(await readRunningMcpServers(t.configDir)).toEqual({ servers: [], problems: [] });
  });

  it('of a killed server are not listed, and are removed by the next server that starts; a corrupt one is a problem', async () => {
    const t = setup();
    const dead = await deadPid();
    fs.mkdirSync(t.dir, { recursive: true });
    fs.writeFileSync(path.join(t.dir, `${dead}.json`), JSON.stringify({ ...record, pid: dead, started_at: 'then' }));
    fs.writeFileSync(path.join(t.dir, '1.json'), '{"pid":');
    const before = await readRunningMcpServers(t.configDir);
    expect(before.servers).toEqual([]);
    expect(before.problems).toEqual([{ file: path.join(t.dir, '1.json'), error: expect.stringMatching(/JSON/) }]);

    const registration = await registerMcpServer(t.configDir, { ...record, page_url: undefined, health_url: undefined });
    expect(fs.existsSync(path.join(t.dir, `${dead}.json`))).toBe(false);
    expect((await readRunningMcpServers(t.configDir)).servers).toEqual([
      { pid: process.pid, mode: 'supervisor', cwd: '/project', started_at: expect.any(String) },
    ]);
    await registration.remove();
  });
});
