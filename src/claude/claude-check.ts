/**
 * The one check of the claude at hand against the supported range (claude-support.ts), shared by
 * `ccc doctor`, every supervised run, `ccc kanban` and the standalone Stop hook. `--version` is
 * asked once per executable: the answer is remembered in the config dir, keyed by the executable's
 * identity (claude-version.ts), so every run after the first costs a stat and a small file read,
 * not a claude start.
 */
import { claudeVersion } from './claude-version.js';
import { claudeSupport, MINIMUM_CLAUDE, unsupportedClaudeText, type ClaudeSupport } from './claude-support.js';
import { CccError } from '../errors.js';
import { cccDir, claudeVersionCachePath } from '../state/paths.js';

export interface ClaudeAtHand {
  /** The configured command (`claude`, a path…), part of the version cache's key. */
  command: string;
  /** The executable it resolved to (findExecutable). */
  file: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  configDir: string;
}

/** What this claude's `--version` says about it; a `--version` that fails or hangs (10 s) is `unreadable`. */
export async function supportOf(claude: ClaudeAtHand): Promise<ClaudeSupport> {
  const line = await claudeVersion({
    command: claude.command,
    file: claude.file,
    cwd: claude.cwd,
    env: claude.env,
    cacheFile: claudeVersionCachePath(claude.configDir),
    prepareDir: () => cccDir(claude.configDir),
  });
  return claudeSupport(line);
}

/** Exit 2 (`CLAUDE_UNSUPPORTED`) when this claude is older than the minimum or its version cannot be read. */
export async function requireSupportedClaude(claude: ClaudeAtHand): Promise<ClaudeSupport> {
  const support = await supportOf(claude);
  const refused = unsupportedClaudeText(support, claude.file);
  if (refused !== undefined)
    throw new CccError('CLAUDE_UNSUPPORTED', refused, {
      data: { command: claude.command, minimum: MINIMUM_CLAUDE, ...(support.kind === 'too-old' ? { version: support.version } : {}) },
    });
  return support;
}
