/**
 * What `ccc config` prints: every effective leaf value with the layer it came from, or the
 * plain effective object as JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { envVariableFor } from './env-overrides.js';
import { getPath, leafKeys } from './key-path.js';
import type { ConfigLayer, ResolvedConfig } from './types.js';
import { redactedUrl, SECRET_URL_KEYS } from './secret-url.js';

/** Leaf names whose values are credentials: shown masked in text (never in `--json`, which scripts read). */
const SECRET_KEY = /token|secret|password|api_?key|auth/i;

/** The reviewer's instructions file a run would use (undefined: none) and why; see doctor/prompt-in-use.ts. */
export interface PromptInUse {
  path?: string;
  /** Where `path` really is, when it is a symlink (or goes through one). */
  real?: string;
  why: string;
  /** A SUPERVISOR.md that is there but cannot be used (a directory, a FIFO, too large): `ccc init` refuses to write over it. */
  unusable?: string;
}

/** `reviewer`: what the reviewer may run here and why (cli/reviewer-in-use.ts), printed after the values. */
export function formatConfigText(resolved: ResolvedConfig, prompt?: PromptInUse, reviewer: readonly string[] = []): string {
  const config = resolved.config as unknown as Record<string, unknown>;
  const rows = leafKeys(config).map((keys) => {
    const dotted = keys.join('.');
    const value = getPath(config, keys);
    const shown =
      SECRET_URL_KEYS.has(dotted) && typeof value === 'string'
        ? JSON.stringify(redactedUrl(value))
        : SECRET_KEY.test(keys[keys.length - 1]!) && typeof value === 'string'
          ? mask(value)
          : JSON.stringify(value);
    const unused = dotted === 'supervisor.prompt_path' && prompt?.path !== undefined && prompt.path !== value ? `; not in use: ${prompt.path} is` : '';
    return { left: `${dotted} = ${shown}`, source: sourceLabel(resolved.sources[dotted], dotted, resolved) + unused };
  });
  const width = Math.max(...rows.map((r) => r.left.length));
  const header = [
    `# config dir: ${resolved.configDir}`,
    `# global file: ${resolved.files.global === undefined ? `none (${path.join(resolved.configDir, 'ccc.json')} not found)` : filePlace(resolved.files.global)}`,
    `# project file: ${resolved.files.project === undefined ? 'none found' : filePlace(resolved.files.project)}`,
    ...(prompt ? [`# prompt file: ${prompt.path === undefined ? prompt.why : `${promptPlace(prompt)} (${prompt.why})`}`] : []),
  ];
  return [...header, ...rows.map((r) => `${r.left.padEnd(width)}   (${r.source})`), ...notes(resolved), ...reviewer].join('\n') + '\n';
}

/** `path`, or `path -> real (a link)` when the file is really elsewhere. */
export function promptPlace(prompt: PromptInUse): string {
  return prompt.real === undefined ? (prompt.path ?? '') : `${prompt.path} -> ${prompt.real} (a link)`;
}

function filePlace(file: string): string {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return file;
  }
  return promptPlace({ path: file, why: '', ...(real === file ? {} : { real }) });
}

function notes(resolved: ResolvedConfig): string[] {
  const model = resolved.config.supervisor.reviewer.model;
  if (!model) return [];
  return [
    `# supervisor.reviewer.model = ${model}: a model other than the agent's cannot read the agent's prompt cache, so every review reads the whole conversation uncached.`,
  ];
}

/** As the config is, but a webhook URL: a script that reads this has no use for the credential, and a CI log would keep it. */
export function formatConfigJson(resolved: ResolvedConfig): string {
  const { notify } = resolved.config;
  const config = notify.webhook_url ? { ...resolved.config, notify: { ...notify, webhook_url: redactedUrl(notify.webhook_url) } } : resolved.config;
  return JSON.stringify(config, null, 2) + '\n';
}

function sourceLabel(layer: ConfigLayer | undefined, dotted: string, resolved: ResolvedConfig): string {
  switch (layer) {
    case 'global':
      return `global: ${resolved.files.global ?? '?'}`;
    case 'project':
      return `project: ${resolved.files.project ?? '?'}`;
    case 'env':
      return `env: ${envVariableFor(dotted) ?? '?'}`;
    case undefined:
      return '?';
    default:
      return layer;
  }
}

function mask(secret: string): string {
  return secret.length >= 12 ? JSON.stringify(`****${secret.slice(-4)}`) : JSON.stringify('****');
}
