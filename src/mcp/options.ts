/**
 * The settings of `ccc mcp`: the `mcp` keys of design section 4, their environment overrides
 * (document 003 names), the config dir, and two internal limits.
 *
 * Precedence, lowest first: defaults < `base` (the loaded config file's `mcp` section, when the
 * caller has one) < environment < `--no-supervisor`. Invalid values are a CONFIG_INVALID error
 * naming the variable, except `max_restart_attempts`: document 003 (SUP-005) says an invalid value
 * warns and falls back to 5, so a typo never stops the server from starting.
 */
import os from 'node:os';
import path from 'node:path';
import type { CccConfig, LogLevel } from '../config/types.js';
import { CccError } from '../errors.js';

export type McpConfig = CccConfig['mcp'];

export interface McpOptions extends McpConfig {
  /** `$CCC_CONFIG_DIR` or `~/.claude`, absolute. The database lives in `<configDir>/ccc/`. */
  configDir: string;
  log_level: LogLevel;
  /** Restarts are counted within this sliding window (see supervisor/restart-policy.ts). */
  restart_window_ms: number;
  /** A started worker that has not said `ready` by then is killed and counted as a crash. */
  ready_timeout_ms: number;
}

export const mcpDefaults: McpConfig = {
  enabled: true,
  max_restart_attempts: 5,
  restart_delay_ms: 2000,
  health_interval_ms: 30_000,
  health_timeout_ms: 5000,
  health_failures: 3,
  queue_timeout_ms: 30_000,
  http_port: 0,
};

export const RESTART_WINDOW_MS = 10 * 60 * 1000;
const READY_TIMEOUT_MS = 20_000;

/** Integer keys: environment variable and the smallest allowed value. */
const integerKeys = {
  restart_delay_ms: { env: 'SUPERVISOR_RESTART_DELAY_MS', min: 0, max: 3_600_000 },
  health_interval_ms: { env: 'SUPERVISOR_HEALTH_INTERVAL_MS', min: 10, max: 86_400_000 },
  health_timeout_ms: { env: 'SUPERVISOR_HEALTH_TIMEOUT_MS', min: 1, max: 3_600_000 },
  health_failures: { env: 'SUPERVISOR_HEALTH_FAILURES', min: 1, max: 1000 },
  queue_timeout_ms: { env: 'SUPERVISOR_QUEUE_TIMEOUT_MS', min: 0, max: 3_600_000 },
  http_port: { env: 'CCC_MCP_HTTP_PORT', min: 0, max: 65_535 },
} as const;

export interface ResolveMcpOptionsInput {
  env: NodeJS.ProcessEnv;
  /** The `mcp` section of the loaded configuration, if any. */
  base?: Partial<McpConfig>;
  /** `--no-supervisor` was given. */
  noSupervisor?: boolean;
  configDir?: string;
  logLevel?: LogLevel;
  /** Receives the SUP-005 fallback warning. */
  warn: (message: string) => void;
}

export function resolveMcpOptions(input: ResolveMcpOptionsInput): McpOptions {
  const { env } = input;
  const merged: McpConfig = { ...mcpDefaults, ...input.base };
  if (env.SUPERVISOR_ENABLED !== undefined) merged.enabled = parseBoolean('SUPERVISOR_ENABLED', env.SUPERVISOR_ENABLED);
  if (input.noSupervisor) merged.enabled = false;
  for (const [key, spec] of Object.entries(integerKeys) as Array<[keyof typeof integerKeys, (typeof integerKeys)[keyof typeof integerKeys]]>) {
    const raw = env[spec.env];
    const value = raw === undefined ? merged[key] : parseInteger(spec.env, raw);
    if (!Number.isInteger(value) || value < spec.min || value > spec.max) {
      throw new CccError('CONFIG_INVALID', `${raw === undefined ? `mcp.${key}` : spec.env} is ${JSON.stringify(raw ?? value)}; use a whole number from ${spec.min} to ${spec.max}.`, { data: { key, value: raw ?? value } });
    }
    merged[key] = value;
  }
  merged.max_restart_attempts = restartAttempts(env.SUPERVISOR_MAX_RESTART_ATTEMPTS ?? merged.max_restart_attempts, input.warn);
  return {
    ...merged,
    configDir: input.configDir ?? configDirFrom(env),
    log_level: input.logLevel ?? logLevelFrom(env.CCC_SUPERVISOR_LOG_LEVEL),
    restart_window_ms: RESTART_WINDOW_MS,
    ready_timeout_ms: READY_TIMEOUT_MS,
  };
}

/** SUP-005: anything but a whole number >= 0 warns and uses the default. */
function restartAttempts(raw: unknown, warn: (message: string) => void): number {
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  warn(`SUPERVISOR_MAX_RESTART_ATTEMPTS=${JSON.stringify(raw)} is invalid (use a whole number >= 0); using the default ${mcpDefaults.max_restart_attempts}.`);
  return mcpDefaults.max_restart_attempts;
}

export function configDirFrom(env: NodeJS.ProcessEnv): string {
  const dir = env.CCC_CONFIG_DIR;
  if (dir && dir.trim() !== '') return path.resolve(dir);
  return path.join(env.HOME ?? os.homedir(), '.claude');
}

function parseBoolean(name: string, raw: string): boolean {
  const text = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new CccError('CONFIG_INVALID', `${name} is ${JSON.stringify(raw)}; use true or false.`, { data: { key: name, value: raw } });
}

function parseInteger(name: string, raw: string): number {
  if (!/^\s*-?\d+\s*$/.test(raw)) {
    throw new CccError('CONFIG_INVALID', `${name} is ${JSON.stringify(raw)}; use a whole number.`, { data: { key: name, value: raw } });
  }
  return Number(raw);
}

function logLevelFrom(raw: string | undefined): LogLevel {
  const text = raw?.trim().toLowerCase();
  if (text === undefined || text === '') return 'info';
  if (text === 'debug' || text === 'info' || text === 'warn' || text === 'error') return text;
  throw new CccError('CONFIG_INVALID', `CCC_SUPERVISOR_LOG_LEVEL is ${JSON.stringify(raw)}; use debug, info, warn or error.`, { data: { key: 'CCC_SUPERVISOR_LOG_LEVEL', value: raw } });
}
