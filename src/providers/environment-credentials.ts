/**
 * Which credentials claude will use when no ccc provider sets any: the setup of a user whose only
 * configuration is `ANTHROPIC_API_KEY` in the environment, or a claude login. The order is
 * claude's own: a cloud provider's credentials, `ANTHROPIC_AUTH_TOKEN`, `ANTHROPIC_API_KEY`, an
 * `apiKeyHelper` in claude's settings, `CLAUDE_CODE_OAUTH_TOKEN`, then the login `/login` stored.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface EnvironmentCredentials {
  /** What claude will authenticate with, for people ("the API key in ANTHROPIC_API_KEY (…mnop)"). */
  source: string;
  /** Where the requests go: `ANTHROPIC_BASE_URL`, or undefined for claude's default endpoint. */
  baseUrl?: string;
}

export interface CredentialPlaces {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The file system edge: reads a file, undefined when it is not there or unreadable. */
  readFile?: (file: string) => string | undefined;
}

const CLOUD: ReadonlyArray<readonly [string, string]> = [
  ['CLAUDE_CODE_USE_BEDROCK', 'Amazon Bedrock (its AWS credentials)'],
  ['CLAUDE_CODE_USE_VERTEX', 'Google Vertex AI (its Google Cloud credentials)'],
  ['CLAUDE_CODE_USE_FOUNDRY', 'Microsoft Foundry (its Azure credentials)'],
];

export function environmentCredentials(places: CredentialPlaces): EnvironmentCredentials | undefined {
  const { env } = places;
  const read = places.readFile ?? readIfThere;
  const baseUrl = nonEmpty(env.ANTHROPIC_BASE_URL);
  const found = (source: string): EnvironmentCredentials => ({ source, ...(baseUrl ? { baseUrl } : {}) });
  for (const [name, provider] of CLOUD) if (truthy(env[name])) return { source: `${provider}, as ${name} is set` };
  if (nonEmpty(env.ANTHROPIC_AUTH_TOKEN)) return found(`the bearer token in ANTHROPIC_AUTH_TOKEN (${masked(env.ANTHROPIC_AUTH_TOKEN!)})`);
  if (nonEmpty(env.ANTHROPIC_API_KEY)) return found(`the API key in ANTHROPIC_API_KEY (${masked(env.ANTHROPIC_API_KEY!)})`);
  const claudeDir = nonEmpty(env.CLAUDE_CONFIG_DIR) ?? path.join(env.HOME ?? '', '.claude');
  const settings = [
    path.join(places.cwd, '.claude', 'settings.local.json'),
    path.join(places.cwd, '.claude', 'settings.json'),
    path.join(claudeDir, 'settings.json'),
  ];
  for (const file of settings) {
    const helper = apiKeyHelper(read(file));
    if (helper) return found(`the key printed by apiKeyHelper \`${helper}\` (${file})`);
  }
  if (nonEmpty(env.CLAUDE_CODE_OAUTH_TOKEN)) return found(`the OAuth token in CLAUDE_CODE_OAUTH_TOKEN (${masked(env.CLAUDE_CODE_OAUTH_TOKEN!)})`);
  const login = path.join(claudeDir, '.credentials.json');
  if (read(login) !== undefined) return found(`your claude login (${login})`);
  return undefined;
}

function apiKeyHelper(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const value = (JSON.parse(text) as { apiKeyHelper?: unknown }).apiKeyHelper;
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  } catch {
    return undefined; // claude ignores a settings file it cannot parse in print mode; so does this
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Enough of a secret to tell which one it is, never the secret. */
function masked(secret: string): string {
  const s = secret.trim();
  return s.length > 12 ? `…${s.slice(-4)}` : 'set';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}
