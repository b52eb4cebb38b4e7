/**
 * The agent's spend in an interactive session. claude gives its status line command the session's
 * running cost on stdin (`cost.total_cost_usd`, computed by claude from each answer's usage and its
 * own price table); the transcript has only token counts. So ccc's launch settings put in a status
 * line command that keeps the latest input in a file for the supervisor and then runs the user's
 * own status line command, if any, with the same input, its output shown as before.
 *
 * The line is a small shell script, not a second node process: claude runs it after every answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../settings/settings-files.js';
import { shellQuote } from './launch-settings.js';

/** Writes stdin to `$1` (atomically), then pipes it to the user's command `$2` when there is one. */
const RECORDER = 't=$(cat); printf "%s" "$t" > "$1.tmp" && mv -f "$1.tmp" "$1"; [ -z "$2" ] || printf "%s" "$t" | sh -c "$2"';

type StatusLine = Record<string, unknown> & { command?: unknown };

/** The `statusLine` setting that records into `file` and keeps `theirs` (the user's status line) working. */
export function recordingStatusLine(file: string, theirs: StatusLine | undefined): Record<string, unknown> {
  const userCommand = theirs?.type === 'command' && typeof theirs.command === 'string' ? theirs.command : '';
  const command = ['sh', '-c', RECORDER, 'ccc-status-line', file, userCommand].map(shellQuote).join(' ');
  return { ...(theirs ?? {}), type: 'command', command };
}

/**
 * The user's status line as claude would pick it: a `--settings` value first, then the local,
 * project and user settings files. An unreadable or malformed file counts as having none (claude's
 * own reading of it reports the fault; the status line is no reason to stop the run).
 */
export function userStatusLine(env: NodeJS.ProcessEnv, cwd: string, launchSettings: Record<string, unknown> | undefined): StatusLine | undefined {
  const fromArg = statusLineOf(launchSettings);
  if (fromArg) return fromArg;
  for (const file of [localSettingsPath(cwd), projectSettingsPath(cwd), userSettingsPath(env)]) {
    const found = statusLineOf(readJson(file));
    if (found) return found;
  }
  return undefined;
}

function statusLineOf(settings: unknown): StatusLine | undefined {
  if (!settings || typeof settings !== 'object') return undefined;
  const line = (settings as Record<string, unknown>).statusLine;
  return line && typeof line === 'object' && !Array.isArray(line) ? (line as StatusLine) : undefined;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Where this supervisor's status line input is kept. */
export function statusLineFile(dir: string, pid: number): string {
  return path.join(dir, `status-line-${pid}.json`);
}

/**
 * The agent's cost so far as the status line last saw it (0 before its first run). claude runs
 * the line after the Stop hook, so at a stop this may not yet count the turn that just ended;
 * read after the review, it does (docs/design/claude-facts.md, "The status line").
 */
export function recordedAgentCost(file: string): number {
  const input = readJson(file) as { cost?: { total_cost_usd?: unknown } } | undefined;
  const cost = input?.cost?.total_cost_usd;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : 0;
}
