/**
 * What one launch of `claude` gets from ccc.json: the provider's environment (given to the child
 * process) and the merged settings (given as a per-launch `--settings <json>`), so the user's own
 * files are never rewritten to switch providers.
 */
import type { CccConfig } from '../config/types.js';
import { CccError } from '../errors.js';
import type { JsonObject } from '../settings/json-file.js';
import { mergeSettings } from './merge-settings.js';

export interface LaunchPlan {
  /** The provider used: the one named, else `current_provider`; undefined when neither is set. */
  provider?: string;
  /** Variables to add to the child's environment. */
  env: Record<string, string>;
  /** Base settings, then the provider's on top; empty when there is nothing to pass. */
  settings: JsonObject;
}

/** `configFile` only sharpens the message of an unknown provider (which file to edit). */
export function resolveLaunch(config: CccConfig, providerName?: string, configFile = 'ccc.json'): LaunchPlan {
  const name = providerName ?? config.current_provider;
  if (name === undefined) return { env: {}, settings: mergeSettings({}, config.settings) };
  const provider = Object.prototype.hasOwnProperty.call(config.providers, name) ? config.providers[name] : undefined;
  if (!provider) throw unknownProvider(config, name, providerName === undefined, configFile);
  return {
    provider: name,
    env: { ...provider.env },
    settings: mergeSettings(config.settings, provider.settings ?? {}),
  };
}

function unknownProvider(config: CccConfig, name: string, fromCurrent: boolean, configFile: string): CccError {
  const known = Object.keys(config.providers);
  const list = known.length > 0 ? `Known providers: ${known.join(', ')}.` : 'No providers are configured.';
  const example = `{"providers": {"${name}": {"env": {"ANTHROPIC_BASE_URL": "https://…", "ANTHROPIC_AUTH_TOKEN": "…"}}}}`;
  const message = fromCurrent
    ? `"current_provider" in ${configFile} names "${name}", which is not under "providers". ${list} Run \`ccc <provider>\` with one that exists, or add "${name}" to "providers" (${example}).`
    : `Unknown provider or command "${name}". ${list} Add it to "providers" in ${configFile} (${example}); to pass words to claude itself, put them after --: \`ccc -- ${name}\`.`;
  return new CccError('USAGE', message, { data: { provider: name, known } });
}
