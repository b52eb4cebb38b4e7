/**
 * The config directory ccc keeps its files in (`$CCC_CONFIG_DIR` or `~/.claude`, files under
 * `ccc/`): read-only, missing or full at start is exit 2 naming the directory and the fix; full
 * or read-only in the middle of a session loses no file, stops no review and costs one WARN.
 * Read-only and full are real file systems in a private mount namespace (`unshare -m`: a
 * read-only bind mount, a small tmpfs, a loop-mounted ext4 image), since root ignores permission
 * bits.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { ModelServer, Scenario } from '../support/model-server.js';
import { needs } from '../support/tools.js';

const logLine = /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[(DEBUG|INFO|WARN|ERROR)\] \[[\w-]+\] .*$/;

describe('the config directory', () => {
  // The current test's, from its rig (which tears them down); the helpers below read them.
  let server: ModelServer;
  let world: ClaudeWorld;
  let configDir: string;

  async function setup(rig: Rig, scenario: Scenario = (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'ok' } } : { text: 'done' })) {
    ({ server, world } = await rig.start(scenario));
    configDir = path.join(world.root, 'cccdir');
    fs.mkdirSync(configDir);
  }

  const namespaceEnv = () => ({
    ...world.env,
    CCC_CONFIG_DIR: configDir,
    D: configDir,
    NODE: process.execPath,
    CCC: cccBin,
    OUT: path.join(world.root, 'out'),
    IMG: path.join(world.root, 'config.img'),
  });

  /** ccc in a mount namespace of its own: `mounts` runs there first (with $D = the config dir). */
  function cccInNamespace(mounts: string, after = ':', onStart?: (pid: number) => void) {
    const script = `set -e; ${mounts}; set +e; "$NODE" "$CCC" --supervisor -p 'do it'; code=$?; ${after}; exit $code`;
    const child = spawn('unshare', ['-m', 'sh', '-c', script], {
      cwd: world.cwd,
      env: namespaceEnv(),
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

  it('read-only at start: exit 2 naming the directory, before anything runs', async ({ rig, skip }) => {
    needs({ skip }, 'unshare');
    await setup(rig);
    const run = await cccInNamespace('mount --bind "$D" "$D"; mount -o remount,bind,ro "$D"');
    expectClearStartError(run, /read-only \(EROFS\)/);
    expect(server.requests).toEqual([]);
  });

  it('full at start: exit 2 naming the directory and the full disk', async ({ rig, skip }) => {
    needs({ skip }, 'unshare');
    await setup(rig);
    const run = await cccInNamespace('mount -t tmpfs -o size=256k tmpfs "$D"; dd if=/dev/zero of="$D/fill" bs=4k 2>/dev/null || true');
    expectClearStartError(run, /the disk is full \(ENOSPC\)/);
    expect(server.requests).toEqual([]);
  });

  it('missing (CCC_CONFIG_DIR names a directory that does not exist): exit 2', async ({ rig }) => {
    await setup(rig);
    configDir = path.join(world.root, 'no-such-dir');
    const run = await runCcc(world, ['--supervisor', '-p', 'do it'], { env: { CCC_CONFIG_DIR: configDir } });
    expectClearStartError(run, /does not exist/);
    expect(fs.existsSync(configDir)).toBe(false);
  });

  it('full in the middle of a session: no existing file is lost or torn, one WARN, the session goes on', async ({ rig, skip }) => {
    needs({ skip }, 'unshare');
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
    await setup(rig, (r) => {
      if (r.kind === 'review')
        return r.index === 0 ? { verdict: { completed: false, feedback: 'add the tests' } } : { verdict: { completed: true, feedback: 'ok' } };
      if (r.index === 1) fill(); // after the first review was recorded, before the second
      return { text: `agent answer ${r.index}` };
    });
    const run = await cccInNamespace('mount -t tmpfs -o size=512k tmpfs "$D"', 'mkdir -p "$OUT"; cp -a "$D/ccc" "$OUT/"', (pid) => (inside = pid));

    expect(run.code).toBe(0);
    expect(server.byKind('review')).toHaveLength(2);
    expect(run.stderr.match(/WARN/g)).toHaveLength(1);
    expect(run.stderr).toMatch(/ccc: WARN: cannot write in .*ENOSPC.*CCC_CONFIG_DIR/);
    const saved = path.join(world.root, 'out', 'ccc');
    const files = fs.readdirSync(saved);
    const state = fs.readFileSync(
      path.join(
        saved,
        files.find((f) => /^supervisor-.*\.json$/.test(f))!,
      ),
      'utf8',
    );
    expect(state).toBe(snapshot.state); // the last good state, whole
    expect(JSON.parse(state)).toMatchObject({ iteration: 1 });
    const log = fs.readFileSync(
      path.join(
        saved,
        files.find((f) => /^supervisor-.*\.log$/.test(f))!,
      ),
      'utf8',
    );
    expect(log.startsWith(snapshot.log!)).toBe(true);
    for (const line of log.trimEnd().split('\n')) expect(line).toMatch(logLine);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]); // no temp file left behind
  });
  /**
   * A real ext4 file system as the config directory (a tmpfs happens to create directories on a
   * full disk; ext4 needs a block for each, so a lock directory fails as it does on a user's disk).
   * No reserved blocks: root may fill every one.
   */
  const mountExt4 = 'mount -o loop "$IMG" "$D"';
  function makeExt4Image(): void {
    const image = path.join(world.root, 'config.img');
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 8 << 20);
    execFileSync('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
  }

  /** The namespace of process `inside` sees its config directory under /proc: the test changes it from there. */
  const faults = {
    full(inside: number) {
      const visible = `/proc/${inside}/root${configDir}`;
      const fd = fs.openSync(`${visible}/fill`, 'a');
      try {
        for (const size of [1 << 16, 1024, 1]) {
          try {
            for (;;) fs.writeSync(fd, Buffer.alloc(size));
          } catch (error) {
            expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      // Really full: not even a directory (a lock) can be made there now.
      expect(() => fs.mkdirSync(`${visible}/probe`)).toThrow(/ENOSPC/);
    },
    'read-only'(inside: number) {
      const remount = spawnSync('nsenter', ['-t', String(inside), '-m', 'mount', '-o', 'remount,ro', configDir], { encoding: 'utf8' });
      expect(remount.stderr).toBe('');
      expect(remount.status).toBe(0);
    },
  };
  const ERRNO = { full: 'ENOSPC', 'read-only': 'EROFS' } as const;

  /** The agent's second turn comes after the first review was counted and its verdict saved: the fault strikes there. */
  function faultAfterFirstReview(fault: keyof typeof faults, inside: () => number): Scenario {
    return (r) => {
      if (r.kind === 'review')
        return r.index === 0 ? { verdict: { completed: false, feedback: 'add the tests' } } : { verdict: { completed: true, feedback: 'ok' } };
      if (r.kind === 'agent' && r.index === 1) faults[fault](inside());
      return { text: `agent answer ${r.index}` };
    };
  }

  const savedFiles = () => {
    const saved = path.join(world.root, 'out', 'ccc');
    return { saved, files: fs.readdirSync(saved) };
  };

  for (const fault of ['full', 'read-only'] as const) {
    it(`headless, ext4 ${fault} after the first review: every review runs, one WARN naming the directory, the run's own exit code`, async ({ rig, skip }) => {
      needs({ skip }, 'unshare', 'mkfs.ext4');
      let inside = 0;
      await setup(
        rig,
        faultAfterFirstReview(fault, () => inside),
      );
      makeExt4Image();
      const run = await cccInNamespace(mountExt4, 'mkdir -p "$OUT"; cp -a "$D/ccc" "$OUT/"', (pid) => (inside = pid));

      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(run.stderr).not.toContain('Could not lock');
      expect(server.byKind('review')).toHaveLength(2);
      expect(run.code).toBe(0);
      expect(run.stderr.match(/WARN/g)).toHaveLength(1);
      expect(run.stderr).toContain(`ccc: WARN: cannot write in ${configDir}/ccc (${ERRNO[fault]}`);
      expect(run.stderr).toContain('state in memory');
      expect(run.stderr).toContain('ccc: ⚠ complete (claude, unverified');
      const { saved, files } = savedFiles();
      const state = JSON.parse(
        fs.readFileSync(
          path.join(
            saved,
            files.find((f) => /^supervisor-.*\.json$/.test(f))!,
          ),
          'utf8',
        ),
      );
      expect(state).toMatchObject({ iteration: 1, last_verdict: { completed: false, feedback: 'add the tests' } }); // the last state the disk took
      expect(files.filter((f) => f.endsWith('.lock'))).toEqual([]);
      // The running-session record goes when the disk lets it (a full one does; a read-only one cannot).
      expect(fs.readdirSync(path.join(saved, 'sessions'))).toHaveLength(fault === 'full' ? 0 : 1);
    });
  }
  for (const fault of ['full', 'read-only'] as const) {
    it(`interactive, ext4 ${fault} after the first review: the next stop is reviewed at once, the WARN waits for the terminal`, async ({ rig, skip }) => {
      needs({ skip }, 'unshare', 'mkfs.ext4');
      let inside = 0;
      await setup(
        rig,
        faultAfterFirstReview(fault, () => inside),
      );
      makeExt4Image();
      const script = `set -e; ${mountExt4}; set +e; "$NODE" "$CCC" --supervisor; echo "CCC-EXIT=$?"; mkdir -p "$OUT"; cp -a "$D/ccc" "$OUT/"; echo SAVED; sleep 5`;
      const h = rig.pty('unshare', ['-m', 'sh', '-c', script], { cwd: world.cwd, env: namespaceEnv() });
      inside = h.pty.pid;
      await h.waitForScreen(/❯/, 60_000);
      await h.type('build the thing');
      h.press('\r');
      await h.waitForScreen(/agent answer 1[\s\S]*review 2 \(claude\): complete/, 90_000);
      expect(server.byKind('review')).toHaveLength(2);
      expect(h.screen()).not.toContain('cannot write in'); // not drawn into the TUI
      await h.waitForScreen(/❯\s*\n/, 10_000);
      await h.type('/exit');
      await h.waitForScreen(/❯\s\/exit/, 10_000);
      h.press('\r');
      await h.waitForOutput(/SAVED/, 30_000);
      const screen = h.screen();
      expect(screen).toMatch(/CCC-EXIT=0/);
      expect(screen.match(/ccc: WARN: cannot write in/g)).toHaveLength(1); // after the TUI, on the user's terminal
      expect(screen).toContain(`${configDir}/ccc (${ERRNO[fault]}`);
      expect(screen).not.toMatch(/\n\s+at /);
      const { saved, files } = savedFiles();
      const state = JSON.parse(
        fs.readFileSync(
          path.join(
            saved,
            files.find((f) => /^supervisor-.*\.json$/.test(f))!,
          ),
          'utf8',
        ),
      );
      expect(state).toMatchObject({ iteration: 1 });
      expect(files.filter((f) => f.endsWith('.lock'))).toEqual([]);
      expect(fs.readdirSync(path.join(saved, 'sessions'))).toHaveLength(fault === 'full' ? 0 : 1);
    });
  }
});
