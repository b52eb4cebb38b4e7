/**
 * The interactive supervised session in a real pty, typed as a person would, with the real
 * claude TUI against the scripted model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import { readLog } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { isToolResultTurn, type ModelServer } from '../support/model-server.js';
import { descendants, liveOnes, parentOf } from '../support/process-tree.js';
import type { PtyHarness } from '../support/pty-harness.js';

// Feedback that differs from review to review: the same one three times over an unchanged work
// tree would end the loop through the no-progress guard before max_iterations.
const ASKS = ['fix the parser', 'cover the CLI flags', 'handle empty input'];

describe('ccc --supervisor (interactive, in a real pty)', () => {
  // The current test's, from its rig (which tears them down); the helpers below read them.
  let server: ModelServer;
  let world: ClaudeWorld;

  async function launch(rig: Rig, options: { reviewsToPass?: number; args?: string; reviewHangs?: boolean; env?: NodeJS.ProcessEnv } = {}) {
    const passAt = options.reviewsToPass ?? 1;
    ({ server, world } = await rig.start((r) =>
      r.kind === 'review'
        ? options.reviewHangs
          ? { hang: true }
          : r.index < passAt
            ? {
                verdict: {
                  completed: false,
                  feedback: r.index === 0 ? 'FEEDBACK-I1 add the README' : `FEEDBACK-I${r.index + 1} ${ASKS[r.index % ASKS.length]}`,
                },
              }
            : { verdict: { completed: true, feedback: 'all good' } }
        : { text: `agent answer ${r.index}` },
    ));
    // stty runs on the same pty before and after ccc: the terminal settings must come back identical.
    const script = `stty -a > before.txt; "${process.execPath}" "${cccBin}" --supervisor ${options.args ?? ''}; echo "CCC-EXIT=$?"; stty -a > after.txt; echo STTY-SAVED; sleep 5`;
    const h = rig.pty('/bin/sh', ['-c', script], { cwd: world.cwd, env: { ...world.env, ...options.env } });
    await h.waitForScreen(/❯/, 60_000);
    return h;
  }

  const stty = (name: string) => fs.readFileSync(path.join(world.cwd, name), 'utf8');

  /** ccc's pid from its session record, once the record is there whole. */
  /** ccc's `<pid>.json`, not the temp file beside it while it is (re)written atomically. */
  function sessionRecord(dir: string): string {
    return fs.readdirSync(dir).find((name) => /^\d+\.json$/.test(name)) ?? '';
  }

  async function sessionPid(): Promise<number> {
    const dir = path.join(world.claudeDir, 'ccc', 'sessions');
    const read = () => {
      try {
        return (JSON.parse(fs.readFileSync(path.join(dir, sessionRecord(dir)), 'utf8')) as { pid: number }).pid;
      } catch {
        return 0;
      }
    };
    await expect.poll(read, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    return read();
  }

  it('runs the loop with visible feedback, returns to the prompt, and /exit leaves the terminal as it was', async ({ rig }) => {
    const h = await launch(rig);
    expect(h.output().toString()).toContain('Supervisor mode enabled');
    await h.type('build the thing');
    h.press('\r');
    const screen = await h.waitForScreen(/agent answer 1[\s\S]*review 2 \(claude\): complete/, 60_000);
    expect(screen).toContain('build the thing');
    expect(screen).toContain('FEEDBACK-I1 add the README');
    // the feedback reached the agent as its next message, in the user's session
    const agent = server.byKind('agent');
    expect(agent[1]!.lastUserText).toContain('FEEDBACK-I1 add the README');
    expect(server.byKind('review')[0]!.text).toContain('REVIEW-RULES-7731');
    expect(server.byKind('review')[0]!.text).toContain('1. build the thing');
    await h.waitForScreen(/❯\s*\n/, 10_000);
    await h.type('/exit');
    await h.waitForScreen(/❯\s\/exit/, 10_000); // the TUI took the command: Enter runs it
    h.press('\r');
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=0/);
    expect(stty('after.txt')).toBe(stty('before.txt'));
    const log = fs.readdirSync(path.join(world.claudeDir, 'ccc')).find((f) => f.endsWith('.log') && f.startsWith('supervisor-'))!;
    expect(fs.readFileSync(path.join(world.claudeDir, 'ccc', log), 'utf8')).toMatch(/iteration=2\/20/);
    const input = fs.readdirSync(path.join(world.claudeDir, 'ccc')).find((f) => f.startsWith('input-'))!;
    expect(fs.readFileSync(path.join(world.claudeDir, 'ccc', input), 'utf8')).toContain('build the thing');
    expect(fs.readdirSync(path.join(world.claudeDir, 'ccc', 'sessions'))).toEqual([]);
  });

  it("keeps the loop going past Claude Code's own cap of 8 blocks, up to max_iterations", async ({ rig }) => {
    const h = await launch(rig, { reviewsToPass: 100, args: '--max-iterations 10' });
    await h.type('never done');
    h.press('\r');
    // Ten reviews, ten feedbacks; the stop after the tenth is the limit: the agent is asked to write
    // down where the work stands (one last turn, not reviewed), and the stop after that is allowed.
    // Ten reviews, each a claude run, and eleven agent turns: 41 s beside two busy loops, 85 s
    // beside a second CI run too, past 120 s in the oldest claude's contract run at load 10. A
    // bound for a hang, not for speed.
    await h.waitForScreen(/iteration limit \(10\) was reached/, 360_000);
    await expect.poll(() => server.byKind('agent').length, { timeout: 60_000 }).toBe(12);
    await h.waitForScreen(/given one last\s+turn/, 60_000);
    expect(server.byKind('review')).toHaveLength(10);
    const agent = server.byKind('agent').filter((r) => !isToolResultTurn(r));
    expect(agent).toHaveLength(12);
    expect(agent[11]!.lastUserText).toMatch(/has reached a limit \(the iteration limit \(10\) was reached.*\)[\s\S]*Write down where the work stands/);
  }, 540_000);

  it('follows a resize of the user terminal and passes SIGTERM on to the agent', async ({ rig }) => {
    const h = await launch(rig);
    h.resize(90, 30);
    await h.waitForScreen(/^─{90}$/m, 30_000);
    const pid = await sessionPid(); // the record read once it is there whole, not while it is written
    const record = sessionRecord(path.join(world.claudeDir, 'ccc', 'sessions'));
    const { session_id } = JSON.parse(fs.readFileSync(path.join(world.claudeDir, 'ccc', 'sessions', record), 'utf8'));
    expect(session_id).toMatch(/^[0-9a-f-]{36}$/);
    process.kill(pid, 'SIGTERM');
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=143/);
    const withoutSize = (text: string) => text.replace(/rows \d+; columns \d+/, '');
    expect(withoutSize(stty('after.txt'))).toBe(withoutSize(stty('before.txt')));
  });

  it('restores the terminal and exits 137 when the agent is killed with SIGKILL', async ({ rig }) => {
    const h = await launch(rig);
    const agentPid = findAgentPid(world);
    process.kill(agentPid, 'SIGKILL');
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=137/);
    expect(stty('after.txt')).toBe(stty('before.txt'));
    // The log says how the agent ended: by signal 9, with no exit code of its own.
    expect(readLog(world)).toMatch(/agent exited.*exit_code=null signal=9|exit_code=null signal=9.*agent exited/);
  });

  it('puts the terminal back itself and exits 137 when its relay is killed, and the agent goes too', async ({ rig }) => {
    const h = await launch(rig);
    const agentPid = findAgentPid(world);
    process.kill(
      findProcess(world, (cmdline) => cmdline[0]!.endsWith('ccc-relay')),
      'SIGKILL',
    );
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=137/);
    expect(stty('after.txt')).toBe(stty('before.txt'));
    // The agent's terminal closed with the relay: it got SIGHUP, as in a closed terminal window.
    await expect.poll(() => fs.existsSync(`/proc/${agentPid}`), { timeout: 10_000 }).toBe(false);
  });

  /** kill -9 of ccc: the shell's next `stty -a` is the one from before, and ccc's whole tree is gone within 2 s. */
  async function killCccAndCheck(h: PtyHarness, minimumTree: number) {
    expect(findProcess(world, (cmdline) => cmdline[0]!.endsWith('ccc-relay'))).toBeGreaterThan(0); // the default byte path
    const record = sessionRecord(path.join(world.claudeDir, 'ccc', 'sessions'));
    const { pid } = JSON.parse(fs.readFileSync(path.join(world.claudeDir, 'ccc', 'sessions', record), 'utf8')) as { pid: number };
    const tree = [pid, ...descendants(pid)];
    expect(tree.length).toBeGreaterThanOrEqual(minimumTree);
    const requests = server.requests.length;
    process.kill(pid, 'SIGKILL');
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=137/);
    expect(stty('after.txt')).toBe(stty('before.txt'));
    await expect.poll(() => liveOnes(tree), { timeout: 2000, interval: 20 }).toEqual([]);
    expect(server.requests.length).toBe(requests); // nothing of ccc's is left to call the model
  }

  it("kill -9 of ccc: the shell's next stty -a equals the one from before, and nothing ccc started remains", async ({ rig }) => {
    const h = await launch(rig);
    await killCccAndCheck(h, 3); // ccc, the relay, the agent
  });

  it('kill -9 of ccc with its relay frozen: the process the shell waits for holds it until the relay put the terminal back', async ({ rig }) => {
    const h = await launch(rig);
    const relay = findProcess(world, (cmdline) => cmdline[0]!.endsWith('ccc-relay'));
    const record = sessionRecord(path.join(world.claudeDir, 'ccc', 'sessions'));
    const { pid } = JSON.parse(fs.readFileSync(path.join(world.claudeDir, 'ccc', 'sessions', record), 'utf8')) as { pid: number };
    const waitedFor = parentOf(pid) === h.pty.pid ? pid : parentOf(pid)!; // what the shell launched
    process.kill(relay, 'SIGSTOP'); // the relay cannot restore anything until continued
    try {
      process.kill(pid, 'SIGKILL');
      // ccc is gone, and what the shell waits for is still there: the shell cannot have read the terminal.
      await expect.poll(() => liveOnes([pid, waitedFor]), { timeout: 15_000, interval: 20 }).toEqual([waitedFor]);
      expect(fs.existsSync(path.join(world.cwd, 'after.txt'))).toBe(false);
    } finally {
      process.kill(relay, 'SIGCONT');
    }
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=137/);
    expect(stty('after.txt')).toBe(stty('before.txt'));
  });

  it('kill -9 of ccc on the Node proxy: the shell gets 137 and the agent ends with its pty (the terminal is left raw, as documented)', async ({ rig }) => {
    const h = await launch(rig, { env: { CCC_RELAY: 'off' } });
    const pid = await sessionPid();
    expect(parentOf(pid)).toBe(h.pty.pid); // no front: nothing there could restore the terminal
    const tree = [pid, ...descendants(pid)]; // ccc, the job shell, the agent
    expect(tree.length).toBeGreaterThanOrEqual(3);
    process.kill(pid, 'SIGKILL');
    await h.waitForOutput(/STTY-SAVED/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=137/);
    await expect.poll(() => liveOnes(tree), { timeout: 30_000, interval: 50 }).toEqual([]);
  });

  it('kill -9 of ccc during a review: the reviewer goes too', async ({ rig }) => {
    const h = await launch(rig, { reviewHangs: true });
    await h.type('build the thing');
    h.press('\r');
    await expect.poll(() => server.byKind('review').length, { timeout: 60_000 }).toBeGreaterThan(0);
    await killCccAndCheck(h, 4); // ccc, the relay, the agent, the reviewer (and what they started)
  });
});

/** The claude that ccc started: the process in the project directory launched with --session-id (not ccc, not its relay). */
function findAgentPid(world: ClaudeWorld): number {
  return findProcess(world, (cmdline) => cmdline.includes('--session-id') && !cmdline.some((a) => a.endsWith('main.js')) && !cmdline[0]!.endsWith('ccc-relay'));
}

/** A process running in the project directory whose command line matches. */
function findProcess(world: ClaudeWorld, matches: (cmdline: string[]) => boolean): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === world.cwd && matches(cmdline)) return Number(entry);
    } catch {
      // gone
    }
  }
  throw new Error('the process was not found');
}
