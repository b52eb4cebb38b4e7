/**
 * The observer on a real supervised session: the real claude TUI in a pty under
 * `ccc --supervisor --observe`, three WebSocket observers and the page in a real Chromium.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { resetSequence } from '../../src/pty/terminal-modes.js';
import { cccBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { connectObserver, type TestObserver } from './support/test-observer.js';

describe('ccc --supervisor --observe with the real claude', () => {
  // The native relay (copies output only while someone watches) and the Node proxy (CCC_RELAY=off).
  it.for<[string, NodeJS.ProcessEnv, string]>([
    ['the native relay', {}, 'observer-e2e.png'],
    ['the Node proxy', { CCC_RELAY: 'off' }, 'observer-e2e-node-proxy.png'],
  ])(
    'three observers get exactly the terminal bytes, the frames and the events; the page shows the run (%s)',
    { timeout: 240_000 },
    async ([, relayEnv, screenshot], { rig, browser }) => {
      const { world } = await rig.start(
        (r) =>
          r.kind === 'review'
            ? r.index === 0
              ? { verdict: { completed: false, feedback: 'FEEDBACK-OBS add the changelog' } }
              : { verdict: { completed: true, feedback: 'changelog present' } }
            : { text: `observed answer ${r.index}` },
        { env: relayEnv },
      );
      const h = rig.pty(process.execPath, [cccBin, '--supervisor', '--observe'], { cwd: world.cwd, env: world.env });
      await h.waitForOutput(/Observer: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+/, 30_000);
      const url = /Observer: (\S+)/.exec(h.output().toString())![1]!;
      const observers: TestObserver[] = await Promise.all([connectObserver(url), connectObserver(url), connectObserver(url)]);
      const page = await browser.newPage({ viewport: { width: 1500, height: 800 } });
      await page.goto(url);

      await h.waitForScreen(/❯/, 60_000);
      await h.type('write the changelog');
      h.press('\r');
      await h.waitForScreen(/observed answer 1[\s\S]*review 2 \(claude\): complete/, 90_000);

      // The page: the terminal text and the verdict timeline of this run.
      const verdicts = page.locator('.event[data-kind="verdict"]');
      await expect.poll(() => verdicts.count(), { timeout: 20_000 }).toBe(2);
      expect(await verdicts.nth(0).innerText()).toContain('FEEDBACK-OBS add the changelog');
      // What each review cost and how much of its input came from the prompt cache.
      expect(await verdicts.nth(0).innerText()).toMatch(/review \$\d+\.\d+, \d+% of [\d,]+ input tokens from cache/);
      expect(await verdicts.nth(1).getAttribute('data-completed')).toBe('true');
      const rows = async () => (await page.locator('.xterm-rows > div').allTextContents()).join('\n').replace(/\u00a0/g, ' ');
      await expect.poll(rows, { timeout: 20_000 }).toContain('observed answer 1');
      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: `test-artifacts/${screenshot}` });

      await h.type('/exit');
      await h.waitForScreen(/❯\s\/exit/, 10_000); // the TUI took the command: Enter runs it
      h.press('\r');
      expect((await h.exited).exitCode).toBe(0);
      // After the agent exited, ccc writes its terminal-mode resets to the user's terminal only,
      // then the observer URL again (the one printed before the TUI has scrolled away), then the line
      // that says what the reviews cost, then how to continue under supervision.
      const output = h.output();
      const text = output.toString('latin1'); // one char per byte: lengths are byte counts
      const summary =
        /ccc: 2 reviews, \$\d+\.\d+, \d+% of review input read from cache; spent \$\d+\.\d+ in all\r\nccc: continue this session under supervision with `ccc --supervisor --resume [0-9a-f-]{36}`\r\n$/.exec(
          text,
        );
      expect(summary).not.toBeNull();
      const closedLine = `Observer: ${url} (closed with the session)\r\n`;
      const beforeSummary = text.slice(0, text.length - summary![0].length);
      expect(beforeSummary.endsWith(closedLine)).toBe(true);
      const userTerminal = output.subarray(0, beforeSummary.length - closedLine.length);
      const reset = Buffer.from(resetSequence(false));
      expect(userTerminal.subarray(userTerminal.length - reset.length).equals(reset)).toBe(true);
      const agentBytes = userTerminal.subarray(0, userTerminal.length - reset.length);
      for (const observer of observers) {
        await observer.waitFor((m) => m.type === 'bye', 'bye');
        // Byte for byte: what the observer got live is exactly what the user's terminal got from then on.
        const live = observer.liveBytes();
        expect(live.length).toBeGreaterThan(2000);
        expect(agentBytes.subarray(agentBytes.length - live.length).equals(live)).toBe(true);
        expect(observer.messages.some((m) => m.type === 'frame' && (m.frame as { type?: string }).type === 'assistant')).toBe(true);
        const events = observer.messages.filter((m) => m.type === 'event').map((m) => m.event as { kind: string; completed?: boolean; n?: number });
        const verdictEvents = events.filter((e) => e.kind === 'verdict');
        expect(verdictEvents.map((e) => e.completed)).toEqual([false, true]);
        expect(events.filter((e) => e.kind === 'iteration').map((e) => e.n)).toEqual([1, 2]);
        expect(events.findIndex((e) => e.kind === 'verdict' && e.completed)).toBeGreaterThan(events.findIndex((e) => e.kind === 'verdict' && !e.completed));
        expect(events[events.length - 1]!.kind).toBe('end');
      }
    },
  );
});
