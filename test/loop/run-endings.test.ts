/**
 * The session log's last line says how an interactive run ended, whatever ended it: the user
 * quitting after a verdict or after a limit, a signal to ccc, the agent crashing, the byte relay
 * killed. One table, each case on the real claude in a real pty; the line is read from the log.
 */
import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import type { ClaudeWorld } from '../support/claude-env.js';
import { lastLogLine } from '../support/ccc-run.js';
import { descendants } from '../support/process-tree.js';
import type { ModelServer, Reply } from '../support/model-server.js';
import type { PtyHarness } from '../support/pty-harness.js';

/** The first process under `root` whose command line matches. */
function processUnder(root: number, matches: (cmdline: string[]) => boolean): number {
  for (const pid of descendants(root)) {
    try {
      if (matches(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'))) return pid;
    } catch {
      // gone
    }
  }
  throw new Error('the process was not found');
}
const isRelay = (cmdline: string[]) => cmdline[0]!.endsWith('ccc-relay');
const isCcc = (cmdline: string[]) => cmdline.some((a) => a.endsWith('main.js')) && cmdline.includes('--supervisor');
const isAgent = (cmdline: string[]) => cmdline.includes('--session-id') && !isCcc(cmdline) && !isRelay(cmdline);

async function quitAfter(h: PtyHarness, task: string, shown: RegExp) {
  await h.type(task);
  h.press('\r');
  await h.waitForScreen(shown, 90_000);
  await h.waitForScreen(/❯\s*\n/, 10_000);
  await h.type('/exit');
  await h.waitForScreen(/❯\s\/exit/, 10_000);
  h.press('\r');
}

async function quit(h: PtyHarness) {
  await h.type('/exit');
  await h.waitForScreen(/❯\s\/exit/, 10_000);
  h.press('\r');
}

interface Ending {
  name: string;
  args?: string[];
  passes: boolean;
  /** The reviewer's answer to each review (else `passes`), and the agent's to each request. */
  review?: (index: number) => Reply;
  agent?: (index: number) => Reply;
  end(h: PtyHarness, world: ClaudeWorld, server: ModelServer): Promise<void>;
  exit: number;
  line: RegExp;
  /** The last line ccc printed, once the TUI was gone. */
  printed?: RegExp;
}

const NOT_CONFIRMED = /^ccc: the work was not confirmed complete \(/;

/** The last line written to the terminal, without its escape sequences (ccc's, after the TUI has gone). */
function lastPrintedLine(h: PtyHarness): string | undefined {
  const plain = h
    .output()
    .toString('utf8')
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[()][0-9A-Za-z]|\x1b[78=>]|[\x0e\x0f]/g, '');
  return plain
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .pop();
}

const endings: Ending[] = [
  {
    name: 'the user quits after a verdict',
    passes: true,
    end: (h) => quitAfter(h, 'build the thing', /review 1 \(claude\): complete/),
    exit: 0,
    line: /\[INFO\] .*exit_code=0 mode=interactive reviews=1 run ended: the agent exited with code 0 \(the user quit\); last stop: completed: /,
    printed: /^ccc: continue this session under supervision with `ccc --supervisor --resume [0-9a-f-]{36}`$/,
  },
  {
    name: 'the user quits after a limit',
    args: ['--max-iterations', '1'],
    passes: false,
    end: (h) => quitAfter(h, 'never done', /given one last\s+turn/),
    exit: 0,
    line: /exit_code=0 mode=interactive reviews=1 run ended: the agent exited with code 0 \(the user quit\); the work was not confirmed complete \(last stop: limit: /,
    printed: NOT_CONFIRMED,
  },
  {
    // The agent's turn on the feedback is interrupted (Esc, no stop), then /exit: the exit code is 0.
    name: 'the user quits after a "not complete", its feedback turn interrupted',
    passes: false,
    agent: (i) => (i === 0 ? { text: 'working' } : { hang: true }),
    end: async (h, _world, server) => {
      await h.type('build the thing');
      h.press('\r');
      await h.waitForScreen(/review 1 \(claude\): not complete/, 90_000);
      await expect.poll(() => server.byKind('agent').length, { timeout: 30_000 }).toBe(2);
      h.press('\x1b');
      await h.waitForScreen(/Interrupted/, 10_000);
      await quit(h);
    },
    exit: 0,
    line: /\[INFO\] .*exit_code=0 mode=interactive reviews=1 run ended: the agent exited with code 0 \(the user quit\); the work was not confirmed complete \(last stop: not complete \(review 1\): the agent was sent back\)$/,
    printed: /^ccc: the work was not confirmed complete \(last stop: not complete \(review 1\): the agent was sent back\)$/,
  },
  {
    // claude kills the running Stop hook on /exit: the review is cancelled, no verdict applied.
    name: 'the user quits while a review runs',
    passes: false,
    review: () => ({ hang: true }),
    end: async (h, _world, server) => {
      await h.type('build the thing');
      h.press('\r');
      await expect.poll(() => server.byKind('review').length, { timeout: 90_000 }).toBe(1);
      await quit(h);
    },
    exit: 0,
    line: /\[INFO\] .*exit_code=0 mode=interactive reviews=0 run ended: the agent exited with code 0 \(the user quit\); the work was not confirmed complete \(last stop: cancelled: /,
    printed: NOT_CONFIRMED,
  },
  {
    name: 'SIGTERM to ccc',
    passes: true,
    end: async (h) => void process.kill(processUnder(h.pty.pid, isCcc), 'SIGTERM'),
    exit: 143,
    line: /\[WARN\] .*exit_code=143 mode=interactive reviews=0 run ended: SIGTERM received and passed on; the agent (ended by SIGTERM|exited with code \d+); the work was not confirmed complete \(no stop was reviewed\)/,
  },
  {
    name: 'the agent crashes (SIGKILL)',
    passes: true,
    end: async (h) => void process.kill(processUnder(h.pty.pid, isAgent), 'SIGKILL'),
    exit: 137,
    line: /\[ERROR\] .*exit_code=137 mode=interactive reviews=0 run ended: the agent ended by SIGKILL; the work was not confirmed complete \(no stop was reviewed\)/,
  },
  {
    name: 'the byte relay is killed',
    passes: true,
    end: async (h) => void process.kill(processUnder(h.pty.pid, isRelay), 'SIGKILL'),
    exit: 137,
    line: /\[ERROR\] .*exit_code=137 mode=interactive reviews=0 run ended: its byte relay \(ccc-relay\) was killed by SIGKILL, and the agent with it/,
  },
];

describe("an interactive run's log ends with how it ended", () => {
  for (const ending of endings) {
    it(
      ending.name,
      async ({ rig }) => {
        const { h, world, server } = await rig.launch(
          (r) =>
            r.kind === 'review'
              ? (ending.review?.(r.index) ?? { verdict: { completed: ending.passes, feedback: ending.passes ? 'all good' : 'add the tests' } })
              : (ending.agent?.(r.index) ?? { text: 'working' }),
          { args: ending.args },
        );
        await ending.end(h, world, server);
        const exited = await h.exited;
        expect(exited.exitCode).toBe(ending.exit);
        expect(lastLogLine(world)).toMatch(ending.line);
        if (ending.printed) expect(lastPrintedLine(h)).toMatch(ending.printed);
      },
      180_000,
    );
  }
});
