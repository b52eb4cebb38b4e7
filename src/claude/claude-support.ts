/**
 * The claude versions ccc supports: from MINIMUM_CLAUDE, the oldest that has everything ccc uses,
 * to NEWEST_TESTED_CLAUDE, the newest its tests ran on (docs/install.md, "Node and Claude Code").
 *
 * The minimum is the newest of the things ccc needs from claude: `--fork-session`,
 * `--no-session-persistence`, `--include-hook-events` (the reviewer's guard probe), the Stop hook's
 * `last_assistant_message` and `background_tasks`, `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`, `/goal`'s
 * `goal_status` records, and the result frame's `model_usage_since_last_result` (a forked review's
 * own cost: without it a review costs the whole session so far and the cost cap fires on the
 * agent's spend). That last one came in 2.1.309. CI runs the contract tests on the minimum and on
 * the newest claude on the registry (`scripts/claude-versions.mjs`).
 *
 * A claude below the minimum, or one whose `--version` ccc cannot read, is refused before any
 * model request (doctor ✗, exit 2); a newer one than the newest tested runs, and `ccc doctor` says so.
 */
import { clip } from '../value-text.js';

export const MINIMUM_CLAUDE = '2.1.309';
/** The `@anthropic-ai/claude-code` devDependency the tests run (a test checks the two agree). */
export const NEWEST_TESTED_CLAUDE = '2.1.332';

type Version = readonly [number, number, number];

/** What ccc makes of claude's `--version` line. */
export type ClaudeSupport =
  { kind: 'supported'; version: string; newerThanTested: boolean } | { kind: 'too-old'; version: string } | { kind: 'unreadable'; line: string };

/** `2.1.332` from `2.1.332 (Claude Code)`: the line must start with the version. */
export function claudeVersionOf(line: string): string | undefined {
  return /^(\d{1,6})\.(\d{1,6})\.(\d{1,9})(?:[\s(]|$)/.exec(line.trim())?.slice(1, 4).join('.');
}

export function claudeSupport(line: string): ClaudeSupport {
  const version = claudeVersionOf(line);
  if (version === undefined) return { kind: 'unreadable', line };
  if (compareVersions(version, MINIMUM_CLAUDE) < 0) return { kind: 'too-old', version };
  return { kind: 'supported', version, newerThanTested: compareVersions(version, NEWEST_TESTED_CLAUDE) > 0 };
}

/** Negative, 0 or positive as `a` is older than, the same as or newer than `b` (both `x.y.z`). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

function parts(version: string): Version {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return [major, minor, patch];
}

/** What to do about a claude ccc cannot run with, said the same by `ccc doctor` and a refused run. */
export const CLAUDE_UPDATE_FIX = `install Claude Code ${MINIMUM_CLAUDE} or newer (npm install -g @anthropic-ai/claude-code@latest, or \`claude update\`), or set CCC_CLAUDE to the path of one`;

/** Why a run refuses this claude, or undefined when it is supported. */
export function unsupportedClaudeText(support: ClaudeSupport, file: string): string | undefined {
  if (support.kind === 'too-old') return `claude ${support.version} (${file}) is older than ${MINIMUM_CLAUDE}, the oldest ccc supports; ${CLAUDE_UPDATE_FIX}.`;
  if (support.kind === 'unreadable')
    return `cannot read the version of ${file} (\`--version\` printed ${JSON.stringify(clip(support.line, 80))}); ccc needs Claude Code ${MINIMUM_CLAUDE} or newer: ${CLAUDE_UPDATE_FIX}.`;
  return undefined;
}
