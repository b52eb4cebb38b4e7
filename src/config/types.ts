/**
 * The configuration shape of design section 4. Keys keep the snake_case names of the original
 * documents so an existing `ccc.json` keeps working.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A checker as written in config: a built-in or plugin name, or `{ use, ...options }`. */
export type CheckerDeclaration = string | ({ use: string } & Record<string, unknown>);

export interface ProviderConfig {
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
}

export interface CccConfig {
  claude: { command: string; args: string[] };
  supervisor: {
    max_iterations: number;
    timeout_seconds: number;
    log_level: LogLevel;
    prompt_path: string;
    completion_marker: string;
    checkers: CheckerDeclaration[];
    /** Same feedback this many times in a row with an unchanged work tree ends the loop. */
    no_progress_limit: number;
    /** Stop when the summed `total_cost_usd` of agent and reviewer reaches this; unset = no cap. */
    max_cost_usd?: number;
    /** The forked reviewer (the `claude` checker). */
    reviewer: {
      /** Permission rules beyond reading and verifying: `Bash(make check)`, `Bash(npm run lint:*)`, `Bash`, `Edit`. */
      allow: string[];
      /** Another model than the agent's. It cannot read the agent's prompt cache: every review is a full read. */
      model?: string;
    };
  };
  observer: {
    host: string;
    port: number;
    token?: string;
    allow_input: boolean;
    scrollback_bytes: number;
    max_observers: number;
  };
  mcp: {
    enabled: boolean;
    max_restart_attempts: number;
    restart_delay_ms: number;
    health_interval_ms: number;
    health_timeout_ms: number;
    health_failures: number;
    queue_timeout_ms: number;
    http_port: number;
  };
  kanban: { max_retries: number; roles_dir: string };
  plugins: string[];
  current_provider?: string;
  providers: Record<string, ProviderConfig>;
  settings: Record<string, unknown>;
}

/** What a user may write: every key optional, nested. */
export type UserConfig = DeepPartial<CccConfig>;

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends Array<unknown> ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/** Where an effective value came from, lowest precedence first. */
export type ConfigLayer = 'default' | 'global' | 'project' | 'env' | 'flag';

export interface ResolvedConfig {
  config: CccConfig;
  /** Dotted key path (e.g. `supervisor.max_iterations`) to the layer that set it. */
  sources: Record<string, ConfigLayer>;
  /** Files that were read, by layer. */
  files: { global?: string; project?: string };
  /** `$CCC_CONFIG_DIR` or `~/.claude`, absolute. */
  configDir: string;
  /** Problems that did not stop loading (an env value ignored under `onInvalid: 'warn'`); print them. */
  warnings: string[];
}

/** Identity helper so `ccc.config.ts` type-checks. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
