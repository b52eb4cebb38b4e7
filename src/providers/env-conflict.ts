/**
 * The env-conflict guard. Claude Code applies the `env` of its settings files (user, project,
 * local) over the environment it was started with, so a provider's ANTHROPIC_BASE_URL given by
 * ccc would be silently replaced by one left in `settings.json`: the user would think they talk
 * to one provider and pay another. ccc refuses to launch instead, and says what to change.
 * A key set to the same value in both places changes nothing, so it is no conflict.
 * Credentials are one group: Claude Code sends an API key and an auth token together, so a token
 * in settings.json next to a provider's key would reach the provider too.
 */
import { CccError, type EnvConflict } from '../errors.js';
import { isPlainObject } from '../config/rules.js';
import { readJsonObjectFile } from '../settings/json-file.js';
import { CREDENTIAL_KEYS } from './launch-env.js';

export interface SettingsEnvSource {
  file: string;
  env: Record<string, unknown>;
}

/** Reads the `env` of each settings file; missing files are skipped, corrupt ones refused. */
async function readSettingsEnv(files: string[]): Promise<SettingsEnvSource[]> {
  const sources: SettingsEnvSource[] = [];
  for (const file of files) {
    const { exists, value } = await readJsonObjectFile(file);
    if (exists && isPlainObject(value.env)) sources.push({ file, env: value.env });
  }
  return sources;
}

export function findEnvConflicts(providerEnv: Record<string, string>, sources: SettingsEnvSource[]): EnvConflict[] {
  const conflicts: EnvConflict[] = [];
  const bringsCredential = CREDENTIAL_KEYS.some((key) => providerEnv[key] !== undefined);
  for (const source of sources) {
    for (const [key, value] of Object.entries(source.env)) {
      if (Object.prototype.hasOwnProperty.call(providerEnv, key)) {
        if (String(value) !== providerEnv[key]) conflicts.push({ key, file: source.file, kind: 'override' });
      } else if (bringsCredential && (CREDENTIAL_KEYS as readonly string[]).includes(key)) {
        conflicts.push({ key, file: source.file, kind: 'credential' });
      }
    }
  }
  return conflicts;
}

function envConflictError(provider: string, conflicts: EnvConflict[], providerEnv: Record<string, string>, configFile = 'ccc.json'): CccError {
  const lines = conflicts.map(({ key, file, kind }) =>
    kind === 'override'
      ? `- ${key} in the "env" of ${file} would override the provider's ${key} (settings.json "env" wins over the environment ccc passes)`
      : `- ${key} in the "env" of ${file} would be sent to the provider's endpoint along with the provider's own credential`,
  );
  const keys = [...new Set(conflicts.map((c) => c.key))].join(', ');
  const files = [...new Set(conflicts.map((c) => c.file))].join(', ');
  const providerKeys = [
    ...new Set(conflicts.flatMap((c) => (c.kind === 'override' ? [c.key] : CREDENTIAL_KEYS.filter((k) => providerEnv[k] !== undefined)))),
  ].join(', ');
  return new CccError(
    'SETTINGS_CONFLICT',
    [
      `Provider "${provider}" cannot be used as configured, because Claude Code would mix in settings of its own:`,
      ...lines,
      `To resolve: remove ${keys} from the "env" of ${files} (ccc sets the provider's variables for each launch),` +
        ` or, to keep what the settings file says, remove ${providerKeys} from providers.${provider}.env in ${configFile}.`,
    ].join('\n'),
    { data: { provider, conflicts } },
  );
}

/** Throws SETTINGS_CONFLICT when a settings file would override the provider's environment. */
export async function assertNoEnvConflict(options: {
  provider: string;
  providerEnv: Record<string, string>;
  settingsFiles: string[];
  configFile?: string;
}): Promise<void> {
  if (Object.keys(options.providerEnv).length === 0) return;
  const conflicts = findEnvConflicts(options.providerEnv, await readSettingsEnv(options.settingsFiles));
  if (conflicts.length > 0) throw envConflictError(options.provider, conflicts, options.providerEnv, options.configFile);
}
