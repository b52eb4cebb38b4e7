/**
 * The config directory ccc keeps its files in (`$CCC_CONFIG_DIR` or `~/.claude`, files under
 * `ccc/`): read-only, missing or full at start is exit 2 naming the directory and the fix; full
 * in the middle of a session loses no file and costs one WARN. Read-only and full are real file
 * systems in a private mount namespace (`unshare -m`: a read-only bind mount, a small tmpfs),
 * since root ignores permission bits.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cccBin, makeClaudeWorld, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { startModelServer, type ModelServer, type Scenario } from '../support/model-server.js';

const logLine = /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[(DEBUG|INFO|WARN|ERROR)\] \[[\w-]+\] .*$/;

describe('the config directory', () => {
  let server: ModelServer;
  let world: ClaudeWorld;
  let configDir: string;
  afterEach(async () => {
    await server?.close();
    world?.cleanup();
  });

  async function setup(scenario: Scenario = (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'ok' } } : { text: 'done' })) {
    server = await startModelServer(scenario);
    world = makeClaudeWorld({ modelUrl: server.url });
    writeSupervisorPrompt(world);
    configDir = path.join(world.root, 'cccdir');
    fs.mkdirSync(configDir);
  }

  /** ccc in a mount namespace of its own: `mounts` runs there first (with $D = the config dir). */
  function cccInNamespace(mounts: string, after = ':', onStart?: (pid: number) => void) {
    const script = `set -e; ${mounts}; set +e; "$NODE" "$CCC" --supervisor -p 'do it'; code=$?; ${after}; exit $code`;
    const child = spawn('unshare', ['-m', 'sh', '-c', script], {
      cwd: world.cwd,
      env: { ...world.env, CCC_CONFIG_DIR: configDir, D: configDir, NODE: process.execPath, CCC: cccBin, OUT: path.join(world.root, 'out') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onStart?.(child.pid!);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    return new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }

  const expectClearStartError = (run: { code: number | null; stderr: string }, what: RegExp) => {
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`config directory ${configDir}`);
    expect(run.stderr).toMatch(what);
    expect(run.stderr).toContain('CCC_CONFIG_DIR');
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stderr).not.toContain('Supervisor mode enabled');
  };

  it('read-only at start: exit 2 naming the directory, before anything runs', async () => {
    await setup();
    const run = await cccInNamespace('mount --bind "$D" "$D"; mount -o remount,bind,ro "$D"');
    expectClearStartError(run, /read-only \(EROFS\)/);
    expect(server.requests).toEqual([]);
  });

  it('full at start: exit 2 naming the directory and the full disk', async () => {
    await setup();
    const run = await cccInNamespace('mount -t tmpfs -o size=256k tmpfs "$D"; dd if=/dev/zero of="$D/fill" bs=4k 2>/dev/null || true');
    expectClearStartError(run, /the disk is full \(ENOSPC\)/);
    expect(server.requests).toEqual([]);
  });

  it('missing (CCC_CONFIG_DIR names a directory that does not exist): exit 2', async () => {
    await setup();
    configDir = path.join(world.root, 'no-such-dir');
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { env: { CCC_CONFIG_DIR: configDir } });
    expectClearStartError(run, /does not exist/);
    expect(fs.existsSync(configDir)).toBe(false);
  });

  it('full in the middle of a session: no existing file is lost or torn, one WARN, the session goes on', async () => {
    let inside = 0;
    const snapshot: { state?: string; log?: string } = {};
    const visible = (rel: string) => `/proc/${inside}/root${configDir}/${rel}`; // the namespace's view of its tmpfs
    const fill = () => {
      const dir = fs.readdirSync(visible('ccc'));
      snapshot.state = fs.readFileSync(visible(`ccc/${dir.find((f) => /^supervisor-.*\.json$/.test(f))}`), 'utf8');
      snapshot.log = fs.readFileSync(visible(`ccc/${dir.find((f) => /^supervisor-.*\.log$/.test(f))}`), 'utf8');
      try {
        fs.writeFileSync(visible('fill'), Buffer.alloc(1 << 20));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
    };
    await setup((r) => {
      if (r.kind === 'review') return r.index === 0 ? { verdict: { completed: false, feedback: 'add the tests' } } : { verdict: { completed: true, feedback: 'ok' } };
      if (r.index === 1) fill(); // after the first review was recorded, before the second
      return { text: `agent answer ${r.index}` };
    });
    const run = await cccInNamespace('mount -t tmpfs -o size=512k tmpfs "$D"', 'mkdir -p "$OUT"; cp -a "$D/ccc" "$OUT/"', (pid) => (inside = pid));

    expect(run.code).toBe(0);
    expect(server.byKind('review')).toHaveLength(2);
    expect(run.stderr.match(/WARN/g)).toHaveLength(1);
    expect(run.stderr).toMatch(/ccc: WARN: could not write .*ENOSPC.*CCC_CONFIG_DIR/);
    const saved = path.join(world.root, 'out', 'ccc');
    const files = fs.readdirSync(saved);
    const state = fs.readFileSync(path.join(saved, files.find((f) => /^supervisor-.*\.json$/.test(f))!), 'utf8');
    expect(state).toBe(snapshot.state); // the last good state, whole
    expect(JSON.parse(state)).toMatchObject({ iteration: 1 });
    const log = fs.readFileSync(path.join(saved, files.find((f) => /^supervisor-.*\.log$/.test(f))!), 'utf8');
    expect(log.startsWith(snapshot.log!)).toBe(true);
    for (const line of log.trimEnd().split('\n')) expect(line).toMatch(logLine);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]); // no temp file left behind
  });
});
