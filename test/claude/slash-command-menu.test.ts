/**
 * The TUI's command menu and Enter, with the real claude in a pty: typing `/resume` opens a menu
 * of the matching commands, `/resume` highlighted. Enter handled while that menu still shows runs
 * the highlighted command as it is, without the argument typed after it: `/resume <id>` then opens
 * the session picker instead of resuming. Once the menu has closed, Enter runs the typed line with
 * its argument. A test that types a command with an argument waits for the menu to close
 * (test/loop/session-flags-interactive.test.ts): on a loaded machine the typed text can be on the
 * screen before the menu has gone.
 */
import { expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

const ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const visible = (screen: string) => screen.split('\n').slice(-40).join('\n');

it.for([
  ['with the menu still open', 'the highlighted /resume without its argument: the session picker', /No sessions in this project yet/],
  ['once the menu has closed', 'the typed line with its argument', new RegExp(`Session ${ID} was not found`)],
] as Array<[string, string, RegExp]>)('Enter on `/resume <id>` %s runs %s', { timeout: 120_000 }, async ([when, , shows], { rig }) => {
  const { world } = await rig.start(() => ({ text: 'hi' }));
  const h = rig.pty(claudeBin, [], { cwd: world.cwd, env: world.env });
  await h.waitForScreen(/❯/, 60_000);
  await h.type('/resume');
  await h.waitForScreen(/Resume a previous session/); // the menu, /resume highlighted
  if (when === 'with the menu still open') {
    h.press(` ${ID}\r`); // the argument and Enter in one read: the menu has not caught up
  } else {
    await h.type(` ${ID}`);
    await h.waitForScreen(new RegExp(`❯\\s/resume ${ID}`));
    await expect.poll(() => visible(h.screen()), { timeout: 20_000, interval: 50 }).not.toContain('Resume a previous session');
    h.press('\r');
  }
  await h.waitForScreen(/No sessions in this project yet|was not found/, 30_000);
  expect(visible(h.screen())).toMatch(shows);
});
