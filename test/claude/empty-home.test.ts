/**
 * What the real claude does with HOME set but empty: Node's os.homedir() answers "" then, which
 * is why ccc refuses to run (src/config/config-dir.ts), and claude, which does not, falls back to
 * the account's home from the user database and keeps its state and the session there. Run in a
 * user and mount namespace with a scratch directory mounted over that home, so the account's real
 * `~/.claude` is never touched; where such a namespace cannot be made, the test fails saying so.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { claudeBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { needs } from '../support/tools.js';

/** Inside `unshare -r` the process is uid 0, whose home the user database names. */
const ACCOUNT_HOME = '/root';

function canMountOverHome(): boolean {
  try {
    execFileSync('unshare', ['-rm', 'sh', '-c', `mount --bind /tmp "${ACCOUNT_HOME}"`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the real claude with HOME empty', () => {
  beforeEach(({ skip }) => {
    needs({ skip }, 'unshare');
    expect(canMountOverHome(), 'this machine makes no user and mount namespace (`unshare -rm`): allow them, or CCC_TEST_SKIP=unshare').toBe(true);
  });

  it("runs, and keeps its config and the session in the account's home, not in the project", async ({ rig }) => {
    const server = await rig.server(() => ({ text: 'hello back' }));
    const world = rig.world({ server, env: { HOME: '' } });
    const accountHome = path.join(world.root, 'account-home');
    fs.mkdirSync(accountHome);
    const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
    const run = await runProcess(
      'unshare',
      ['-rm', 'sh', '-c', script, 'sh', accountHome, ACCOUNT_HOME, claudeBin, '-p', '--output-format', 'stream-json', '--verbose', 'hello'],
      { cwd: world.cwd, env: world.env, input: '' },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = /"session_id":"([^"]+)"/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    expect(fs.readdirSync(world.cwd)).toEqual([]);
    expect(fs.existsSync(path.join(accountHome, '.claude.json'))).toBe(true);
    const projects = path.join(accountHome, '.claude', 'projects');
    const sessions = fs.readdirSync(projects).flatMap((d) => fs.readdirSync(path.join(projects, d)));
    expect(sessions).toContain(`${id}.jsonl`);
    // The world's own HOME, which claude was not told about, holds nothing of this session.
    expect(fs.existsSync(path.join(world.home, '.claude', 'projects'))).toBe(false);
  }, 120_000);
});
