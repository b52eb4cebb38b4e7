/**
 * Where Claude Code keeps its settings files. The user file follows Claude Code's own
 * `CLAUDE_CONFIG_DIR` (default `~/.claude`, HOME taken from the given environment, so tests and
 * sandboxes never touch the real home).
 */
import path from 'node:path';
import { homeDir } from '../config/config-dir.js';

function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  if (env.CLAUDE_CONFIG_DIR) return path.resolve(env.CLAUDE_CONFIG_DIR);
  return path.join(homeDir(env), '.claude');
}

export function userSettingsPath(env: NodeJS.ProcessEnv): string {
  return path.join(claudeConfigDir(env), 'settings.json');
}

export function projectSettingsPath(cwd: string): string {
  return path.join(cwd, '.claude', 'settings.json');
}

export function localSettingsPath(cwd: string): string {
  return path.join(cwd, '.claude', 'settings.local.json');
}

/** The files whose `env` Claude Code applies over the process environment, lowest first. */
export function settingsFilesWithEnv(env: NodeJS.ProcessEnv, cwd: string): string[] {
  return [userSettingsPath(env), projectSettingsPath(cwd), localSettingsPath(cwd)];
}
