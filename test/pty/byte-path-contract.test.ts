/**
 * The byte path's contract (src/pty/byte-path.ts), one suite over both implementations: the
 * native relay and the Node proxy, each started by `startAgentProxy` inside a real pty (the user's
 * terminal, read through a headless emulator) with a shell script as the agent. The agent waits
 * for a key wherever a test needs a chunk to end (a sequence split across reads), and the test
 * moves the driver on with SIGUSR1 once the terminal shows what it waits for: no timing guesses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { findRelay } from '../../src/pty/native-relay.js';
import { readProcessState } from '../../src/pty/process-state.js';
import { resetSequence } from '../../src/pty/terminal-modes.js';
import { repoRoot } from '../support/claude-env.js';
import { outputAfter, PROMPT, startJobShell } from '../support/job-shell.js';
import { it, type Fixtures, type Rig } from '../support/fixtures.js';
import type { PtyHarness } from '../support/pty-harness.js';

// Each test's terminals come from its rig, which kills what is left of them after the test.
let rig: Rig;
beforeEach<Fixtures>(({ rig: own }) => {
  rig = own;
});

const driver = path.join(repoRoot, 'test', 'fixtures', 'byte-path-driver.mjs');

interface Report {
  kind: 'relay' | 'node';
  exit: { exitCode: number; signal?: number };
  pid: number | undefined;
  output: string;
  input: string;
  tails: string[];
  gaps: number;
  altScreen: boolean;
  sttyBefore: string;
  sttyAfter: string;
  errors: string[];
}

type Step = Array<[action: 'inject' | 'send' | 'watch' | 'kill' | 'block' | 'hold', arg: string]>;

/** An agent that reads keys in raw mode, stops itself on Ctrl-Z (as claude does) and reports size changes. */
const JOB_AGENT = `exec 4<&0
trap 'printf "SIZE %s\\r\\n" "$(stty size <&4)"' WINCH
stty raw -echo <&4
printf 'READY\\r\\n'
while :; do
  head -c 1 <&4 >key &
  while ! wait $!; do kill -0 $! 2>/dev/null || break; done
  k=$(cat key)
  case "$k" in
    "$(printf '\\032')") stty sane <&4; printf 'SUSPENDED\\r\\n'; kill -TSTP 0; stty raw -echo <&4; printf 'CONTINUED\\r\\n' ;;
    q) exit 7 ;;
    *) printf 'KEY %s\\r\\n' "$k" ;;
  esac
done
`;

/** The agent has exited: gone, or a zombie its parent has not reaped yet. */
const exitedOrZombie = (pid: number) => ['Z', 'X', undefined].includes(readProcessState(pid)?.state);

/** Waits for a key, so the output before it ends a read. */
const WAIT_KEY = 'head -c 1 >/dev/null';
const TITLE = '\x1b]0;ccc: reviewing\x07';

describe.each(['relay', 'node'] as const)('the byte path contract: %s', (kind) => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-byte-path-'));
    if (kind === 'relay') expect(findRelay()).toBeDefined();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  interface RunOptions {
    env?: Record<string, string>;
    steps?: Step[];
    cols?: number;
    rows?: number;
    act?: (h: PtyHarness, next: () => void) => Promise<void>;
  }

  async function run(script: string, options: RunOptions = {}) {
    const report = path.join(dir, 'report.json');
    const env = { ...process.env, BYTE_PATH: kind, DRIVER_REPORT: report, DRIVER_STEPS: JSON.stringify(options.steps ?? []), ...options.env };
    const h = rig.pty(process.execPath, [driver, '/bin/sh', '-c', script], { cwd: dir, env, cols: options.cols ?? 100, rows: options.rows ?? 30 });
    await options.act?.(h, () => process.kill(h.pty.pid, 'SIGUSR1'));
    const exited = await h.exited;
    const result = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
    const terminal = h.output();
    return { exited, terminal, result, output: Buffer.from(result.output, 'base64'), input: Buffer.from(result.input, 'base64') };
  }

  /** The terminal's bytes before the restore at the end, which must be exactly `resetSequence`. */
  function beforeRestore(terminal: Buffer, altScreen: boolean): Buffer {
    const reset = Buffer.from(resetSequence(altScreen));
    expect(terminal.subarray(terminal.length - reset.length).toString('latin1')).toBe(reset.toString('latin1'));
    return terminal.subarray(0, terminal.length - reset.length);
  }

  it('is transparent: every byte value reaches the terminal unchanged, the copy is what the terminal got, typed input reaches the agent, and the terminal is restored', async () => {
    const every = Array.from({ length: 256 }, (_, i) => `\\${i.toString(8).padStart(3, '0')}`).join('');
    const script = `stty raw -echo; printf 'READY\\n'; ${WAIT_KEY}; printf 'BEGIN${every}END'; head -c 5 > typed.txt; exit 5`;
    const { exited, terminal, result, output, input } = await run(script, {
      env: { DRIVER_WATCH: '1' },
      act: async (h) => {
        await h.waitForOutput(/READY/);
        await h.type('khello', 20);
      },
    });
    expect(result.kind).toBe(kind);
    expect(exited.exitCode).toBe(5);
    expect(result.exit).toEqual({ exitCode: 5 });
    expect(result.pid).toBeGreaterThan(0);
    expect(result.errors).toEqual([]);
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const got = beforeRestore(terminal, false);
    expect(got.subarray(got.indexOf('BEGIN') + 5, got.lastIndexOf('END')).equals(all)).toBe(true);
    // The copy is the terminal's bytes, and nothing was missed.
    expect(result.gaps).toBe(0);
    expect(output.equals(got)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'typed.txt'), 'utf8')).toBe('hello');
    expect(input.toString()).toBe('khello');
    expect(result.sttyAfter).toBe(result.sttyBefore);
  });

  it.each([
    ['a control sequence', '\\033[31', 'mRED\\033[0m', Buffer.from('\x1b[31'), '\x1b[31mRED'],
    ['a string (OSC title)', '\\033]0;agent title', '\\007AFTER', Buffer.from('\x1b]0;agent title'), '\x1b]0;agent title\x07AFTER'],
    [
      'a string holding a UTF-8 character with the byte 0x9c',
      '\\033]0;done \\342\\234',
      '\\223\\007AFTER',
      Buffer.from('\x1b]0;done \xe2\x9c', 'latin1'),
      '\x1b]0;done ✓\x07AFTER',
    ],
    ['a UTF-8 character', 'snow \\342\\230', '\\203 man', Buffer.from('snow \xe2\x98', 'latin1'), 'snow ☃ man'],
  ])('writes an injection after %s split across reads, not inside it', async (_name, first, rest, firstBytes, whole) => {
    const script = `stty raw -echo; printf 'READY\\n'; ${WAIT_KEY}; printf '${first}'; ${WAIT_KEY}; printf '${rest}\\n'; printf 'END\\n'`;
    const { terminal } = await run(script, {
      // No idle fallback during the test: only the sequence's end may release the injection.
      env: { DRIVER_INJECT_IDLE_MS: '60000' },
      steps: [
        [['send', 'k']],
        [
          ['inject', TITLE],
          ['send', 'k'],
        ],
      ],
      act: async (h, next) => {
        await h.waitForOutput(/READY/);
        next();
        await expect.poll(() => h.output().includes(firstBytes), { timeout: 10_000 }).toBe(true);
        next();
      },
    });
    const text = terminal.toString('latin1');
    const wholeAt = text.indexOf(Buffer.from(whole).toString('latin1'));
    expect(wholeAt).toBeGreaterThan(-1);
    expect(text.indexOf(TITLE)).toBeGreaterThan(wholeAt);
  });

  it('writes an injection after a string that spans three reads, the last of them without an ESC', async () => {
    const script = `stty raw -echo; printf 'READY\\n'; ${WAIT_KEY}; printf '\\033]0;a long'; ${WAIT_KEY}; printf ' title, part two'; ${WAIT_KEY}; printf ' and three\\007AFTER\\n'`;
    const { terminal } = await run(script, {
      env: { DRIVER_INJECT_IDLE_MS: '60000' },
      steps: [
        [['send', 'k']],
        [['send', 'k']],
        [
          ['inject', TITLE],
          ['send', 'k'],
        ],
      ],
      act: async (h, next) => {
        await h.waitForOutput(/READY/);
        next();
        await h.waitForOutput(/a long/);
        next();
        await h.waitForOutput(/part two/);
        next();
      },
    });
    const text = terminal.toString('latin1');
    expect(text).toContain('\x1b]0;a long title, part two and three\x07AFTER');
    expect(text.indexOf(TITLE)).toBeGreaterThan(text.indexOf('\x07AFTER'));
  });

  it('writes an injection inside an open sequence once the agent has been quiet for the idle time', async () => {
    const script = `stty raw -echo; printf 'READY\\n'; ${WAIT_KEY}; printf '\\033[31'; ${WAIT_KEY}; printf 'mRED\\n'`;
    const { terminal } = await run(script, {
      steps: [[['send', 'k']], [['inject', TITLE]]],
      act: async (h, next) => {
        await h.waitForOutput(/READY/);
        next();
        await expect.poll(() => h.output().includes('\x1b[31'), { timeout: 10_000 }).toBe(true);
        next();
        await expect.poll(() => h.output().includes(TITLE), { timeout: 10_000 }).toBe(true);
        h.press('k');
      },
    });
    const text = terminal.toString('latin1');
    expect(text.indexOf(TITLE)).toBeLessThan(text.indexOf('mRED'));
  });

  it('tracks the alternate screen when its sequence is split across reads, and leaves it at the end', async () => {
    const script = `stty raw -echo; printf 'READY\\n'; ${WAIT_KEY}; printf '\\033[?10'; ${WAIT_KEY}; printf '49hALT\\n'; ${WAIT_KEY}; exit 0`;
    const { terminal, result } = await run(script, {
      act: async (h) => {
        await h.waitForOutput(/READY/);
        h.press('k');
        await expect.poll(() => h.output().includes('\x1b[?10'), { timeout: 10_000 }).toBe(true);
        h.press('k');
        await h.waitForOutput(/ALT/);
        h.press('k');
      },
    });
    expect(result.altScreen).toBe(true);
    expect(beforeRestore(terminal, true).toString()).toContain('\x1b[?1049hALT');
    expect(result.sttyAfter).toBe(result.sttyBefore);
  });

  it("gives the agent the terminal's new size when the user resizes it", async () => {
    const script = `trap 'printf "SIZE %s\\n" "$(stty size)"; exit 0' WINCH; printf 'READY %s\\n' "$(stty size)"; while :; do sleep 5 & wait $!; done`;
    const { result } = await run(script, {
      cols: 90,
      rows: 20,
      act: async (h) => {
        await h.waitForOutput(/READY 20 90/);
        h.resize(120, 33);
        await h.waitForOutput(/SIZE 33 120/);
      },
    });
    expect(result.exit).toEqual({ exitCode: 0 });
  });

  it('keeps the tail while nobody watches, and sends it before the live copy once watching starts', async () => {
    const script = `stty raw -echo; i=0; while [ $i -lt 100 ]; do printf x; i=$((i+1)); done; printf TAIL-END; ${WAIT_KEY}; printf 'LIVE\\n'`;
    const { terminal, result, output } = await run(script, {
      env: { DRIVER_TAIL: '20' },
      steps: [
        [
          ['watch', 'true'],
          ['send', 'k'],
        ],
      ],
      act: async (h, next) => {
        await h.waitForOutput(/TAIL-END/);
        next();
      },
    });
    expect(result.tails).toEqual([Buffer.from('xxxxxxxxxxxxTAIL-END').toString('base64')]);
    // No copy before watching; the tail and the live copy are the terminal's last bytes.
    expect(output.toString()).toBe('LIVE\n');
    const got = beforeRestore(terminal, false);
    expect(got.subarray(got.length - 20 - output.length).toString()).toBe('xxxxxxxxxxxxTAIL-ENDLIVE\n');
  });

  // ccc's side stops reading while the agent floods the terminal. Through the relay, until the
  // terminal has had more than the relay's copy may queue (TEE_LIMIT, 4 MiB, plus the socket's
  // buffer): with the flood still arriving; and until the agent has exited, so that the relay ends
  // while ccc still does not read. Held on what the terminal shows, not for a time: a loaded machine
  // floods slower. The Node proxy's copy is ccc's own loop, so nothing reaches the terminal while it
  // is held: there it is held for a time (3 s, 6 s), the agent blocked on the full pty meanwhile.
  const OVERFLOWED = 6_000_000;
  it.each([
    [12_000_000, 'still arriving', 3000],
    [6_000_000, 'over and the agent gone', 6000],
  ])(
    'accounts for every byte of a %i-byte flood while ccc is busy until it is %s: the copy plus the reported gaps is what the terminal got, and the exit is reported',
    async (bytes, until, blockMs) => {
      const held = path.join(dir, 'let-go');
      const script = `stty raw -echo; printf 'READY %s\\n' $$; ${WAIT_KEY}; head -c ${bytes} /dev/zero | tr '\\0' x; printf 'DONE\\n'`;
      const { terminal, result, output } = await run(script, {
        env: { DRIVER_WATCH: '1' },
        steps: [[['send', 'k'], kind === 'relay' ? ['hold', held] : ['block', String(blockMs)]]],
        act: async (h, next) => {
          await h.waitForOutput(/READY \d+/);
          if (kind === 'node') return next();
          const agent = Number(/READY (\d+)/.exec(h.output().toString())![1]);
          let received = 0;
          h.pty.onData((chunk) => void (received += chunk.length));
          next();
          if (until === 'still arriving') {
            await expect.poll(() => received, { timeout: 120_000, interval: 50 }).toBeGreaterThan(OVERFLOWED);
          } else {
            await h.waitForOutput(/DONE/, 120_000);
            await expect.poll(() => exitedOrZombie(agent), { timeout: 30_000, interval: 50 }).toBe(true);
          }
          fs.writeFileSync(held, '');
        },
      });
      const got = beforeRestore(terminal, false);
      expect(result.errors).toEqual([]);
      expect(result.exit).toEqual({ exitCode: 0 });
      expect(output.length + result.gaps).toBe(got.length);
      // Every byte reached the terminal (compared as counts: a failure must not print 12 MB). Not on
      // the Node proxy: node-pty destroys its socket 200 ms after the agent exits when the reader is
      // paused (the terminal behind), and what was still unread is gone; no public API changes that.
      if (kind === 'node') return;
      expect(got.subarray(-8).toString()).toMatch(/xDONE\r?\n$/);
      expect(got.length - got.indexOf('x')).toBe(bytes + 'DONE\n'.length);
      expect(result.gaps).toBeGreaterThan(0); // the relay's copy is bounded: this flood overflows it
    },
    // A 12 MB flood through a real pty and a terminal emulator: minutes on a loaded 2-core machine.
    240_000,
  );

  it('reports an agent killed by SIGKILL, and restores the terminal it left raw, on the alternate screen, with modes on', async () => {
    const script = `stty raw -echo; printf '\\033[?1049h\\033[?2004h\\033[?25lREADY\\n'; exec sleep 30`;
    const { exited, terminal, result } = await run(script, {
      steps: [[['kill', 'SIGKILL']]],
      act: async (h, next) => {
        await h.waitForOutput(/READY/);
        next();
      },
    });
    expect(result.exit).toEqual({ exitCode: 0, signal: 9 });
    expect(exited.exitCode).toBe(137);
    expect(result.altScreen).toBe(true);
    beforeRestore(terminal, true);
    expect(result.sttyAfter).toBe(result.sttyBefore);
  });

  it('passes a signal from ccc on to the agent and reports it', async () => {
    const { exited, result } = await run(`printf 'READY\\n'; exec sleep 30`, {
      steps: [[['kill', 'SIGTERM']]],
      act: async (h, next) => {
        await h.waitForOutput(/READY/);
        next();
      },
    });
    expect(result.exit).toEqual({ exitCode: 0, signal: 15 });
    expect(exited.exitCode).toBe(143);
  });

  /** A user's interactive shell with job control runs ccc as a job, with JOB_AGENT as the agent. */
  async function inJobShell(act: (h: PtyHarness, report: () => Report) => Promise<void>) {
    const report = path.join(dir, 'report.json');
    fs.writeFileSync(path.join(dir, 'agent.sh'), JOB_AGENT);
    const h = await startJobShell({ cwd: dir, env: { ...process.env, BYTE_PATH: kind, DRIVER_REPORT: report }, cols: 100, rows: 30 }, rig.pty);
    try {
      h.press(`${process.execPath} ${driver} /bin/sh agent.sh\r`);
      await h.waitForScreen(/READY/);
      await act(h, () => JSON.parse(fs.readFileSync(report, 'utf8')) as Report);
    } finally {
      h.kill();
    }
  }

  it('stops with an agent that stops itself (Ctrl-Z): the shell shows the job stopped and has its terminal as it was; fg continues the agent, raw again and redrawn', async () => {
    await inJobShell(async (h, report) => {
      h.press('\x1a');
      await h.waitForScreen(/SUSPENDED[\s\S]*Stopped[\s\S]*PROMPT\$ \s*$/);
      // Typed and echoed as in a cooked terminal, Enter included: the shell has its terminal back.
      h.press('stty -g > stopped.txt; echo WORKS-$((6*7))\r');
      await h.waitForScreen(/WORKS-42\s+PROMPT\$ \s*$/);
      h.press('fg\r');
      await h.waitForScreen(/CONTINUED/);
      // The size nudge: the agent saw a size change after it continued, ending at the real size.
      await expect.poll(() => outputAfter(h, 'CONTINUED'), { timeout: 10_000 }).toMatch(/SIZE 30 100/);
      h.press('x'); // one key, no Enter: raw again
      await h.waitForScreen(/KEY x/);
      h.press('q');
      await h.waitForScreen(PROMPT);
      const result = report();
      expect(fs.readFileSync(path.join(dir, 'stopped.txt'), 'utf8').trim()).toBe(result.sttyBefore);
      expect(result.exit).toEqual({ exitCode: 7 });
      expect(result.sttyAfter).toBe(result.sttyBefore);
      expect(result.errors).toEqual([]);
    });
  });

  it('comes back raw and redrawn after a SIGSTOP of ccc from outside and fg', async () => {
    await inJobShell(async (h, report) => {
      // The foreground job of the user's shell, led by ccc (the driver).
      const ccc = readProcessState(h.pty.pid)!.tpgid;
      expect(ccc).not.toBe(h.pty.pid);
      process.kill(ccc, 'SIGSTOP');
      await h.waitForScreen(/Stopped[\s\S]*PROMPT\$ \s*$/);
      h.press('fg\n'); // the terminal may still be raw (SIGSTOP cannot be caught): \n ends the line
      await expect.poll(() => outputAfter(h, 'Stopped'), { timeout: 10_000 }).toMatch(/SIZE 30 100/);
      h.press('x');
      await h.waitForScreen(/KEY x/);
      h.press('q');
      await h.waitForScreen(PROMPT);
      const result = report();
      expect(result.exit).toEqual({ exitCode: 7 });
      expect(result.sttyAfter).toBe(result.sttyBefore);
    });
  });

  it('reports an agent that cannot be started, with exit code 127, and leaves the terminal untouched', async () => {
    const report = path.join(dir, 'report.json');
    const missing = path.join(dir, 'no-such-agent');
    const h = rig.pty(process.execPath, [driver, missing], { cwd: dir, env: { ...process.env, BYTE_PATH: kind, DRIVER_REPORT: report } });
    expect((await h.exited).exitCode).toBe(127);
    const result = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
    expect(result.errors).toEqual([`cannot run ${missing}: No such file or directory`]);
    expect(result.pid).toBeUndefined();
    expect(result.sttyAfter).toBe(result.sttyBefore);
  });
});
