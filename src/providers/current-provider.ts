/** Switching providers is frequent: keep the newest backups of ccc.json, not one per switch forever. */
const KEEP_BACKUPS = 10;

/**
 * Records the provider a launch used as `current_provider` in the global `ccc.json`, so a later
 * bare `ccc` uses it again. A safe write: merged into the file (every other key kept), atomic,
 * with a backup, refused when the file does not parse.
 */
import path from 'node:path';
import type { JsonFileChange } from '../settings/json-file.js';

export function globalConfigFile(configDir: string): string {
  return path.join(configDir, 'ccc.json');
}

export async function recordCurrentProvider(configDir: string, provider: string, now?: () => Date): Promise<JsonFileChange> {
  // The safe-write machinery loads only when a provider is recorded, not on every launch's path.
  const { updateJsonObjectFile } = await import('../settings/json-file.js');
  return updateJsonObjectFile(globalConfigFile(configDir), (current) => ({ ...current, current_provider: provider }), { now, keepBackups: KEEP_BACKUPS });
}
