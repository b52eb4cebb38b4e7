/**
 * ccc's recording status line in a Claude Code settings object, beside its Stop hook (`ccc hook
 * install`): claude gives a status line the session's running cost, which the standalone hook's
 * cost caps count (src/stop/status-line.ts). The user's own status line is wrapped, not replaced:
 * the recorder runs it with the same input, so it shows as before, and uninstall puts it back.
 * Pure functions over parsed JSON, as stop-hook.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'shell-quote';
import { isPlainObject } from '../config/rules.js';
import { SESSION_RECORDER_NAME, sessionRecordingStatusLine, type StatusLine } from '../stop/status-line.js';
import type { JsonObject } from './json-file.js';
import type { InstallAction } from './stop-hook.js';

/** Returns a new settings object whose status line records into `dir` and runs the user's own line. */
export function installStatusLine(settings: JsonObject, dir: string): { settings: JsonObject; action: InstallAction } {
  const current = isPlainObject(settings.statusLine) ? (settings.statusLine as StatusLine) : undefined;
  const ours = current && cccRecorder(current);
  const wanted = sessionRecordingStatusLine(dir, ours ? usersLine(current, ours.userCommand) : current);
  if (isDeepStrictEqual(current, wanted)) return { settings, action: 'unchanged' };
  return { settings: { ...settings, statusLine: wanted }, action: ours ? 'updated' : 'added' };
}

/** Returns a new settings object with the user's own status line back (none if they had none). */
export function uninstallStatusLine(settings: JsonObject): { settings: JsonObject; removed: boolean } {
  const current = isPlainObject(settings.statusLine) ? (settings.statusLine as StatusLine) : undefined;
  const ours = current && cccRecorder(current);
  if (!current || !ours) return { settings, removed: false };
  const theirs = usersLine(current, ours.userCommand);
  // In place, so that the file's keys keep their order (an install then an uninstall gives back the same bytes).
  if (theirs) return { settings: { ...settings, statusLine: theirs }, removed: true };
  const { statusLine: _ccc, ...rest } = settings;
  return { settings: rest, removed: true };
}

function usersLine(line: StatusLine, userCommand: string): StatusLine | undefined {
  return userCommand === '' ? undefined : { ...line, command: userCommand };
}

/** ccc's recorder: `sh -c <script> ccc-session-status-line <dir> <the user's command>`. */
function cccRecorder(line: StatusLine): { userCommand: string } | undefined {
  if (typeof line.command !== 'string') return undefined;
  const words = parse(line.command);
  if (words[3] !== SESSION_RECORDER_NAME || !words.slice(0, 6).every((w) => typeof w === 'string')) return undefined;
  return { userCommand: (words[5] as string | undefined) ?? '' };
}
