/**
 * The settings of `ccc mcp`: the `mcp` keys of the loaded configuration (the loader
 * applies the SUPERVISOR_* environment variables, see config/env-overrides.ts), the
 * config dir, the log level, `--no-supervisor`, and two internal limits.
 */
import type { CccConfig, LogLevel, ResolvedConfig } from '../config/types.js';

export type McpConfig = CccConfig['mcp'];

export interface McpOptions extends McpConfig {
  /** `$CCC_CONFIG_DIR` or `~/.claude`, absolute. The database lives in `<configDir>/ccc/`. */
  configDir: string;
  log_level: LogLevel;
  /** Restarts are counted within this sliding window (see keeper/restart-policy.ts). */
  restart_window_ms: number;
  /** A started worker that has not said `ready` by then is killed and counted as a crash. */
  ready_timeout_ms: number;
}

export const RESTART_WINDOW_MS = 10 * 60 * 1000;
const READY_TIMEOUT_MS = 20_000;

/** `--no-supervisor` wins over `mcp.enabled` from any layer. */
export function mcpOptionsFrom(resolved: Pick<ResolvedConfig, 'config' | 'configDir'>, flags: { noSupervisor?: boolean } = {}): McpOptions {
  return {
    ...resolved.config.mcp,
    enabled: flags.noSupervisor ? false : resolved.config.mcp.enabled,
    configDir: resolved.configDir,
    log_level: resolved.config.supervisor.log_level,
    restart_window_ms: RESTART_WINDOW_MS,
    ready_timeout_ms: READY_TIMEOUT_MS,
  };
}
