/**
 * The session log's last line says how an interactive run ended, whatever ended it: the user
 * quitting after a verdict or after a limit, a signal to ccc, the agent crashing, the byte relay
 * killed. One table, each case on the real claude in a real pty; the line is read from the log.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ClaudeWorld } from '../support/claude-env.js';
import { lastLogLine } from '../support/ccc-run.js';
import { descendants } from '../support/process-tree.js';
import type { PtyHarness } from '../support/pty-harness.js';
import { supervisedPtyFixture } from '../support/supervised-pty.js';

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

interface Ending {
  name: string;
  args?: string[];
  passes: boolean;
  end(h: PtyHarness, world: ClaudeWorld): Promise<void>;
  exit: number;
  line: RegExp;
}

const endings: Ending[] = [
  {
    name: 'the user quits after a verdict',
    passes: true,
    end: (h) => quitAfter(h, 'build the thing', /review 1 \(claude\): complete/),
    exit: 0,
    line: /\[INFO\] .*exit_code=0 mode=interactive run ended: the agent exited with code 0 \(the user quit\); last stop: completed: /,
  },
  {
    name: 'the user quits after a limit',
    args: ['--max-iterations', '1'],
    passes: false,
    end: (h) => quitAfter(h, 'never done', /given one last\s+turn/),
    exit: 0,
    line: /exit_code=0 mode=interactive run ended: the agent exited with code 0 \(the user quit\); last stop: limit: /,
  },
  {
    name: 'SIGTERM to ccc',
    passes: true,
    end: async (h) => void process.kill(processUnder(h.pty.pid, isCcc), 'SIGTERM'),
    exit: 143,
    line: /\[WARN\] .*exit_code=143 mode=interactive run ended: SIGTERM received and passed on; the agent (ended by SIGTERM|exited with code \d+); no stop was reviewed/,
  },
  {
    name: 'the agent crashes (SIGKILL)',
    passes: true,
    end: async (h) => void process.kill(processUnder(h.pty.pid, isAgent), 'SIGKILL'),
    exit: 137,
    line: /\[ERROR\] .*exit_code=137 mode=interactive run ended: the agent ended by SIGKILL; no stop was reviewed/,
  },
  {
    name: 'the byte relay is killed',
    passes: true,
    end: async (h) => void process.kill(processUnder(h.pty.pid, isRelay), 'SIGKILL'),
    exit: 137,
    line: /\[ERROR\] .*exit_code=137 mode=interactive run ended: its byte relay \(ccc-relay\) was killed by SIGKILL, and the agent with it/,
  },
];

describe("an interactive run's log ends with how it ended", () => {
  const fixture = supervisedPtyFixture();
  for (const ending of endings) {
    it(
      ending.name,
      async () => {
        const { h, world } = await fixture.launch(
          (r) =>
            r.kind === 'review' ? { verdict: { completed: ending.passes, feedback: ending.passes ? 'all good' : 'add the tests' } } : { text: 'working' },
          { args: ending.args },
        );
        await ending.end(h, world);
        const exited = await h.exited;
        expect(exited.exitCode).toBe(ending.exit);
        expect(lastLogLine(world)).toMatch(ending.line);
      },
      180_000,
    );
  }
});
