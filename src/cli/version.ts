/**
 * `ccc --version`: ccc's version, then claude's when it can be found. Never fails for want of
 * claude (that is what a user may be checking), nor for a broken config file. Loads only what
 * finds claude (the whole configuration only when a config file may set claude.command), and
 * claude's version is remembered per executable (src/claude/claude-version.ts).
 */
import fs from 'node:fs';
import { claudeVersion } from '../claude/claude-version.js';
import { configuredClaudeCommand } from '../config/claude-command.js';
import { resolveConfigDir } from '../config/config-dir.js';
import { findExecutable } from '../process/resolve-command.js';
import { cccDir, claudeVersionCachePath } from '../state/paths.js';

/** ccc's version, from the package.json two levels up from both `src/cli/` and `dist/cli/`. */
function cccVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function versionText(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  const command = await configuredClaudeCommand(options);
  const claude = findExecutable(command, options.env, options.cwd);
  if (claude === undefined) return `ccc ${cccVersion()}\nclaude: not found ("${command}"; install Claude Code or set CCC_CLAUDE)\n`;
  const configDir = configDirIfAny(options);
  const version = await claudeVersion({
    command,
    file: claude,
    cwd: options.cwd,
    env: options.env,
    ...(configDir
      ? {
          cacheFile: claudeVersionCachePath(configDir),
          // A missing config dir is not created for this (a launch would say it is missing): nothing is remembered.
          prepareDir: () => {
            if (fs.existsSync(configDir)) cccDir(configDir);
          },
        }
      : {}),
  });
  return `ccc ${cccVersion()}\nclaude ${version}\n`;
}

/** The config dir, or none where there is none to have (an empty HOME, which a launch refuses): the version is then not cached. */
function configDirIfAny(options: { cwd: string; env: NodeJS.ProcessEnv }): string | undefined {
  try {
    return resolveConfigDir(options.env, options.cwd);
  } catch {
    return undefined;
  }
}
