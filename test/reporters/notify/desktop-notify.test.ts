/**
 * The desktop notifier with stand-ins on PATH that record their arguments: `notify-send` on Linux
 * (urgency, title, the body's markup escaped), `osascript` on macOS (the title and body as the
 * fixed script's argv, never inside AppleScript), `auto` without a desktop session sends nothing,
 * and no notifier at all is one warning, never a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopNotifier } from '../../../src/reporters/notify/desktop.js';
import type { Notification } from '../../../src/reporters/notify/notification.js';
import { standInNotifySend } from '../../support/webhook-receiver.js';

const note: Notification = {
  event: 'stuck',
  reason: 'no-progress',
  title: 'ccc: stuck, no progress (app)',
  lines: ['Task: fix <b>it</b> & "more"', 'Why: no progress \x1b]0;owned\x07'],
  priority: 'high',
  project: 'app',
  cwd: '/app',
  at: '2026-01-01T10:00:00.000Z',
};

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-desktop-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('desktop notifications', () => {
  it('Linux: notify-send gets the urgency, the title and the body, markup escaped and inert', async () => {
    const stand = standInNotifySend(dir, fs, path);
    const warnings: string[] = [];
    const desktop = desktopNotifier({ setting: true, env: { PATH: stand.bin }, cwd: dir, platform: 'linux', warn: (m) => warnings.push(m) })!;
    desktop.show(note);
    await desktop.flush(10_000);
    expect(stand.calls()).toEqual([
      ['--app-name=ccc', '--urgency=critical', 'ccc: stuck, no progress (app)', 'Task: fix &lt;b&gt;it&lt;/b&gt; &amp; "more"\nWhy: no progress  ]0;owned'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('macOS: osascript runs a fixed script with the title and body as its arguments', async () => {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    const calls = path.join(dir, 'osascript.jsonl');
    fs.writeFileSync(
      path.join(bin, 'osascript'),
      `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(calls)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
      {
        mode: 0o755,
      },
    );
    const desktop = desktopNotifier({ setting: 'auto', env: { PATH: bin }, cwd: dir, platform: 'darwin', warn: () => {} })!;
    desktop.show({ ...note, title: 'a "quoted" end tell' });
    await desktop.flush(10_000);
    const [args] = fs
      .readFileSync(calls, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    expect(args).toEqual([
      '-e',
      'on run argv',
      '-e',
      'display notification (item 2 of argv) with title (item 1 of argv)',
      '-e',
      'end run',
      'a "quoted" end tell',
      expect.stringContaining('Task: fix <b>it</b>'),
    ]);
  });

  it('auto: no display and no session bus (a server, CI) sends nothing and says nothing', () => {
    const warnings: string[] = [];
    expect(desktopNotifier({ setting: 'auto', env: { PATH: '' }, cwd: dir, platform: 'linux', warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('asked for (true, or auto with a display) where no notifier exists: one warning, no notifier', () => {
    const warnings: string[] = [];
    expect(desktopNotifier({ setting: true, env: { PATH: dir }, cwd: dir, platform: 'linux', warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(desktopNotifier({ setting: 'auto', env: { PATH: dir, DISPLAY: ':0' }, cwd: dir, platform: 'linux', warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringMatching(/^desktop notifications: no notify-send on PATH \(Debian and Ubuntu: apt install libnotify-bin\); none will be shown/),
      expect.stringMatching(/^desktop notifications: no notify-send on PATH/),
    ]);
    expect(desktopNotifier({ setting: false, env: { PATH: dir }, cwd: dir, warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings).toHaveLength(2);
  });
});
