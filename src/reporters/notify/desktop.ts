/**
 * A desktop notification: `notify-send` on Linux and the BSDs (libnotify, over the desktop's
 * D-Bus), `osascript`'s `display notification` on macOS. Each is an argument array: the title and
 * the body reach the notifier as arguments, never through a shell or inside an AppleScript string
 * (osascript gets them as `argv` of a fixed script). Where neither exists (a server, Windows, a
 * container) it says so once, as a warning, and never fails the run. `notify.desktop: auto` sends
 * only where a desktop session can show it (a display or a session bus on Linux; macOS always); a
 * notifier that hangs (a session bus that never answers) is killed after SPAWN_TIMEOUT_MS.
 */
import { spawn } from 'node:child_process';
import { findExecutable } from '../../process/resolve-command.js';
import type { Notification } from './notification.js';
import { markupEscaped, safeParts } from './notification-text.js';

const SPAWN_TIMEOUT_MS = 5000;

/** On macOS: the title and the body as the script's arguments, so nothing in them is AppleScript. */
const OSASCRIPT = ['-e', 'on run argv', '-e', 'display notification (item 2 of argv) with title (item 1 of argv)', '-e', 'end run'];

const URGENCY: Record<Notification['priority'], string> = { low: 'low', normal: 'normal', high: 'critical' };

export interface DesktopOptions {
  setting: boolean | 'auto';
  env: NodeJS.ProcessEnv;
  cwd: string;
  platform?: NodeJS.Platform;
  warn: (message: string) => void;
}

export interface DesktopNotifier {
  show(notification: Notification): void;
  /** Waits for notifiers still running, at most `boundMs`, then kills them. */
  flush(boundMs: number): Promise<void>;
}

/** The notifier this machine has, or undefined (with the warning said, when one was asked for). */
export function desktopNotifier(options: DesktopOptions): DesktopNotifier | undefined {
  if (options.setting === false) return undefined;
  const platform = options.platform ?? process.platform;
  const auto = options.setting === 'auto';
  if (auto && platform !== 'darwin' && !options.env.DISPLAY && !options.env.WAYLAND_DISPLAY && !options.env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  const command = platform === 'darwin' ? 'osascript' : 'notify-send';
  const executable = findExecutable(command, options.env, options.cwd);
  if (!executable) {
    const install = platform === 'darwin' ? '' : ' (Debian and Ubuntu: apt install libnotify-bin)';
    options.warn(`desktop notifications: no ${command} on PATH${install}; none will be shown (notify.desktop: false silences this)`);
    return undefined;
  }
  const running = new Map<ReturnType<typeof spawn>, Promise<void>>();
  return {
    show(n) {
      const { title, body } = safeParts(n);
      const args = platform === 'darwin' ? [...OSASCRIPT, title, body] : ['--app-name=ccc', `--urgency=${URGENCY[n.priority]}`, title, markupEscaped(body)];
      try {
        const child = spawn(executable, args, { stdio: 'ignore', env: options.env, timeout: SPAWN_TIMEOUT_MS });
        const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
        running.set(child, closed);
        child.on('error', (error) => options.warn(`desktop notifications: ${command} failed: ${error.message}`));
        void closed.then(() => running.delete(child));
      } catch (error) {
        options.warn(`desktop notifications: ${command} could not start: ${(error as Error).message}`);
      }
    },
    async flush(boundMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(running.values()), new Promise((resolve) => (timer = setTimeout(resolve, boundMs)))]);
      clearTimeout(timer);
      for (const child of running.keys()) child.kill('SIGKILL');
    },
  };
}
