/**
 * claude's session flags in an interactive supervised session, typed in a real pty with the real
 * claude TUI against the scripted model server: the reviewer forks the session the user is in
 * (chosen by a flag, or by /resume and /clear inside the TUI), the feedback reaches that session
 * after its earlier turns, the exit code is claude's, and the last line says how to continue
 * under supervision.
 */
import { describe, expect, vi } from 'vitest';
import type { ClaudeWorld } from '../support/claude-env.js';
import { runCcc } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import { REVIEW_MESSAGE_MARK, type ModelServer, type RecordedRequest, type Reply } from '../support/model-server.js';
import type { PtyHarness } from '../support/pty-harness.js';

const FEEDBACK = 'FEEDBACK-9K: the parser tests are still missing';
const EARLIER = 'EARLIER-TASK-51: set up the parser';
const TASK = 'NOW-TASK-88 finish the parser';
const SESSION_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

interface Row {
  name: string;
  /**
   * An earlier supervised session, made headless or interactive, that the flags continue. (claude
   * 2.1.330's interactive `--continue` does not pick a session made in print mode: see
   * test/claude/session-facts.test.ts.)
   */
  earlier?: 'headless' | 'interactive';
  args: (earlier: string | undefined) => string[];
  /** Typed in the TUI before the task. */
  typed?: (earlier: string | undefined) => string;
  endsIn: 'earlier' | 'new' | typeof SESSION_ID;
}

const rows: Row[] = [
  { name: '--continue after an earlier supervised session', earlier: 'interactive', args: () => ['--continue'], endsIn: 'earlier' },
  { name: '-c after an earlier supervised session', earlier: 'interactive', args: () => ['-c'], endsIn: 'earlier' },
  { name: '--resume <id> of a headless run', earlier: 'headless', args: (id) => ['--resume', id!], endsIn: 'earlier' },
  { name: '--resume <id> --fork-session', earlier: 'headless', args: (id) => ['--resume', id!, '--fork-session'], endsIn: 'new' },
  { name: '--session-id <uuid>', args: () => ['--session-id', SESSION_ID], endsIn: SESSION_ID },
  { name: '/resume <id> typed in the TUI', earlier: 'headless', args: () => [], typed: (id) => `/resume ${id}`, endsIn: 'earlier' },
];

/** The terminal's rows as shown now (the scrollback above them left out). */
const visibleScreen = (h: PtyHarness) => h.screen().split('\n').slice(-40).join('\n');

describe('interactive supervised sessions with claude session flags', () => {
  const queue: Array<{ completed: boolean; feedback: string }> = [];

  async function setup(rig: Rig): Promise<{ server: ModelServer; world: ClaudeWorld }> {
    let agentTurn = 0;
    queue.length = 0;
    return rig.start((r): Reply =>
      r.kind === 'review' ? { verdict: queue.shift() ?? { completed: true, feedback: 'done now' } } : { text: `AGENT-REPLY-${agentTurn++}` },
    );
  }

  /** Types /exit; ccc's exit code and all it wrote to the terminal, once it has exited. */
  async function exit(pty: PtyHarness): Promise<{ code: number; output: string }> {
    await pty.type('/exit');
    await pty.waitForScreen(/❯ \/exit/, 10_000);
    pty.press('\r');
    const { exitCode } = await pty.exited;
    return { code: exitCode, output: pty.output().toString('utf8') };
  }

  it.for(rows)(
    '$name: the feedback reaches the agent in the session the user is in; the reviewer forks that one',
    // A hang guard, not a timing limit: a headless run, a TUI and three reviews take over a minute on a loaded 2-core machine.
    { timeout: 240_000 },
    async (row, { rig }) => {
      const t = await setup(rig);
      let earlier: string | undefined;
      if (row.earlier === 'headless') {
        const run = await runCcc(t.world, ['--supervisor', '-p', EARLIER]);
        expect(run.code).toBe(0);
        earlier = /ccc: session ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
      } else if (row.earlier === 'interactive') {
        const pty = await rig.supervised(t.world);
        await pty.type(EARLIER);
        pty.press('\r');
        await pty.waitForScreen(/review 1 \(claude\): complete/, 60_000);
        earlier = /ccc --supervisor --resume ([0-9a-f-]{36})/.exec((await exit(pty)).output)?.[1];
      }
      const before = t.server.requests.length;
      queue.push({ completed: false, feedback: FEEDBACK });
      const pty = await rig.supervised(t.world, row.args(earlier));
      if (row.typed) {
        const typed = row.typed(earlier);
        await pty.type(typed);
        // The TUI took the whole command, and its command menu (each match with its description) has
        // closed: Enter runs the command with its argument. Pressed while the menu still showed, with
        // `/resume` highlighted, Enter runs that highlighted command without the argument, which opens
        // the session picker ("No sessions in this project yet"): the screen can show the typed text
        // before the menu closes on a loaded machine (test/claude/slash-command-menu.test.ts).
        await pty.waitForScreen(new RegExp(`❯\\s${typed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 20_000);
        await vi.waitFor(() => expect(visibleScreen(pty)).not.toContain('Resume a previous session'), { timeout: 20_000, interval: 50 });
        pty.press('\r');
        await pty.waitForScreen(new RegExp(EARLIER.slice(0, 14)), 30_000);
        await pty.waitForScreen(/❯\s*$/m, 20_000);
      }
      await pty.type(TASK);
      pty.press('\r');
      await pty.waitForScreen(/review 2 \(claude\): complete/, 60_000);

      const requests = t.server.requests.slice(before);
      const agent = requests.filter((r) => r.kind === 'agent');
      const reviews = requests.filter((r) => r.kind === 'review');
      expect(reviews).toHaveLength(2);
      expect(agent).toHaveLength(2);
      for (const request of agent) expect(request.text).not.toContain(REVIEW_MESSAGE_MARK);
      const [first, second] = agent as [RecordedRequest, RecordedRequest];
      expect(first.lastUserText).toContain(TASK);
      expect(second.lastUserText).toContain(FEEDBACK);
      expect(second.text).toContain(TASK);
      if (row.earlier) {
        expect(first.text).toContain(EARLIER);
        expect(second.text).toContain(EARLIER);
        expect(reviews[0]!.text).toContain(EARLIER);
      }
      // Each review forked the session of its stop: the second one holds the feedback.
      expect(reviews[0]!.text).toContain(TASK);
      expect(reviews[1]!.text).toContain(FEEDBACK);

      const { code, output } = await exit(pty);
      expect(code).toBe(0);
      const hint = /ccc --supervisor --resume ([0-9a-f-]{36})/.exec(output);
      expect(hint, 'the last line says how to continue under supervision').not.toBeNull();
      if (row.endsIn === 'earlier') expect(hint![1]).toBe(earlier);
      else if (row.endsIn === SESSION_ID) expect(hint![1]).toBe(SESSION_ID);
      else expect(hint![1]).not.toBe(earlier);
    },
  );

  it('/clear inside the TUI: the next review forks the new session, whose history has none of the cleared one', async ({ rig }) => {
    const t = await setup(rig);
    queue.push({ completed: true, feedback: 'first is fine' }, { completed: false, feedback: FEEDBACK });
    const pty = await rig.supervised(t.world);
    await pty.type(EARLIER);
    pty.press('\r');
    await pty.waitForScreen(/review 1 \(claude\): complete/, 60_000);
    await pty.type('/clear');
    await pty.waitForScreen(/❯ \/clear/, 10_000);
    pty.press('\r');
    await pty.waitForScreen(/❯\s*$/m, 20_000);
    await pty.type(TASK);
    pty.press('\r');
    await pty.waitForScreen(/review 2 \(claude\): complete/, 60_000);
    const reviews = t.server.byKind('review');
    expect(reviews).toHaveLength(3);
    expect(reviews[1]!.text).toContain(TASK);
    expect(reviews[1]!.text).not.toContain(EARLIER);
    const agent = t.server.byKind('agent');
    const fed = agent.find((r) => r.lastUserText.includes(FEEDBACK))!;
    expect(fed.text).toContain(TASK);
    expect(fed.text).not.toContain(EARLIER);
    expect((await exit(pty)).code).toBe(0);
  });
});
