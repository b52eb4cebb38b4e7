/**
 * The environment layer: ONE table of variable → config key path → parser. To add a variable,
 * add a line; the parser's type is checked against the type of the key it sets.
 *
 * An empty variable counts as unset (`CCC_OBSERVER_TOKEN= ccc …` clears nothing and sets
 * nothing). A value that does not parse is a CONFIG_INVALID error naming the variable, the value
 * and what is allowed, unless the entry says `onInvalid: 'warn'` (SUPERVISOR_MAX_RESTART_ATTEMPTS, so that `ccc mcp`
 * still starts with a sane restart limit): then the lower layers' value stands and a warning is kept.
 */
import type { z } from 'zod';
import { CccError } from '../errors.js';
import { envBoolean, envHttpUrl, envInteger, envNumber, envOneOf, envString, type EnvParser } from './env-parsers.js';
import { redactedUrl } from './secret-url.js';
import { setPath, type ConfigKeyPath, type PathValue } from './key-path.js';
import { schemaAt, unwrap, WEBHOOK_FORMATS } from './schema.js';
import type { CccConfig, UserConfig } from './types.js';

export interface EnvOverride {
  name: string;
  path: ConfigKeyPath;
  parser: EnvParser<unknown>;
  onInvalid: 'error' | 'warn';
  /** The value is a credential: an error about it never repeats it. */
  secret?: boolean;
}

/** A parser, or a number parser made from the rule of the key it sets (its bounds are the schema's). */
type ParserFor<T> = EnvParser<T> | (T extends number ? (rule: z.ZodType<number>) => EnvParser<number> : never);

function override<P extends ConfigKeyPath>(
  name: string,
  path: P,
  parser: ParserFor<PathValue<CccConfig, P>>,
  options: { onInvalid?: 'error' | 'warn'; secret?: boolean } = {},
): EnvOverride {
  const made = typeof parser === 'function' ? parser(unwrap(schemaAt(path.split('.'))!) as z.ZodType<number>) : parser;
  return { name, path, parser: made, onInvalid: options.onInvalid ?? 'error', ...(options.secret ? { secret: true } : {}) };
}

export const envOverrides: readonly EnvOverride[] = [
  override('CCC_SUPERVISOR_MAX_ITERATIONS', 'supervisor.max_iterations', envInteger),
  override('CCC_SUPERVISOR_TIMEOUT_SECONDS', 'supervisor.timeout_seconds', envNumber),
  override('CCC_SUPERVISOR_LOG_LEVEL', 'supervisor.log_level', envOneOf(['debug', 'info', 'warn', 'error'] as const)),
  override('CCC_SUPERVISOR_PROMPT_PATH', 'supervisor.prompt_path', envString()),
  override('CCC_SUPERVISOR_MAX_COST_USD', 'supervisor.max_cost_usd', envNumber),
  override('CCC_SUPERVISOR_MAX_TASK_COST_USD', 'supervisor.max_task_cost_usd', envNumber),
  override('CCC_SUPERVISOR_WIND_DOWN', 'supervisor.wind_down', envBoolean()),
  override('CCC_SUPERVISOR_LIMIT_WAIT_MINUTES', 'supervisor.limit_wait_minutes', envInteger),
  override('CCC_SUPERVISOR_LIMIT_RETRY_SECONDS', 'supervisor.limit_retry_seconds', envNumber),
  override('CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB', 'supervisor.plugin_max_memory_mb', envInteger),
  override('CCC_CLAUDE', 'claude.command', envString()),
  override('CCC_CODEX', 'supervisor.codex.command', envString()),
  override('CCC_CODEX_BASE_URL', 'supervisor.codex.base_url', envHttpUrl()),
  override('CCC_OBSERVER_TOKEN', 'observer.token', envString()),
  override('CCC_NOTIFY_WEBHOOK_URL', 'notify.webhook_url', envHttpUrl(), { secret: true }),
  override('CCC_NOTIFY_WEBHOOK_FORMAT', 'notify.webhook_format', envOneOf(WEBHOOK_FORMATS)),
  // `ccc mcp`, under the names its users already set. An invalid restart limit warns and keeps the default.
  override('SUPERVISOR_ENABLED', 'mcp.enabled', envBoolean()),
  override('SUPERVISOR_MAX_RESTART_ATTEMPTS', 'mcp.max_restart_attempts', envInteger, { onInvalid: 'warn' }),
  override('SUPERVISOR_RESTART_DELAY_MS', 'mcp.restart_delay_ms', envInteger),
  override('SUPERVISOR_HEALTH_INTERVAL_MS', 'mcp.health_interval_ms', envInteger),
  override('SUPERVISOR_HEALTH_TIMEOUT_MS', 'mcp.health_timeout_ms', envInteger),
  override('SUPERVISOR_HEALTH_FAILURES', 'mcp.health_failures', envInteger),
  override('SUPERVISOR_QUEUE_TIMEOUT_MS', 'mcp.queue_timeout_ms', envInteger),
  override('CCC_MCP_HTTP_PORT', 'mcp.http_port', envInteger),
];

export interface EnvLayer {
  config: UserConfig;
  /** Messages for values ignored under `onInvalid: 'warn'`. */
  warnings: string[];
}

export function readEnvLayer(env: NodeJS.ProcessEnv, table: readonly EnvOverride[] = envOverrides): EnvLayer {
  const config: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const entry of table) {
    const raw = env[entry.name];
    if (raw === undefined || raw === '') continue;
    const value = entry.parser.parse(raw);
    if (value !== undefined) {
      setPath(config, entry.path, value);
      continue;
    }
    const shown = entry.secret ? redactedUrl(raw) : JSON.stringify(raw);
    const problem = `environment variable ${entry.name}=${shown}: must be ${entry.parser.allowed} (it sets ${entry.path})`;
    if (entry.onInvalid === 'warn') {
      warnings.push(`Ignoring ${problem}; using the configured value instead.`);
      continue;
    }
    throw new CccError('CONFIG_INVALID', `Invalid ${problem}. Fix or unset the variable.`, {
      data: { variable: entry.name, value: entry.secret ? redactedUrl(raw) : raw, path: entry.path, allowed: entry.parser.allowed },
    });
  }
  return { config: config, warnings };
}

/** The variable that sets a key path, for `ccc config`'s source column. */
export function envVariableFor(path: string, table: readonly EnvOverride[] = envOverrides): string | undefined {
  return table.find((entry) => entry.path === path)?.name;
}
