/**
 * The built-in defaults: the lowest configuration layer (docs/configuration.md).
 * Keys left undefined here (`observer.token`, `supervisor.max_cost_usd`, `supervisor.max_task_cost_usd`, `supervisor.reviewer.model`,
 * `supervisor.codex.model`, `supervisor.codex.base_url`, `supervisor.codex.price`,
 * `notify.webhook_url`, `current_provider`) are
 * "unset" on purpose: no token means a random one per session, no cost cap means none.
 */
import type { CccConfig } from './types.js';

export function defaultConfig(): CccConfig {
  // A function, not a constant: every load gets its own copy, so no caller can mutate the defaults.
  return {
    claude: { command: 'claude', args: [] },
    supervisor: {
      max_iterations: 20,
      timeout_seconds: 600,
      log_level: 'info',
      prompt_path: '~/.claude/SUPERVISOR.md',
      completion_marker: '[TASK_COMPLETED]',
      checkers: ['claude'],
      no_progress_limit: 3,
      wind_down: true,
      limit_wait_minutes: 300,
      limit_retry_seconds: 60,
      plugin_max_memory_mb: 512,
      reviewer: { allow: [], require_evidence: false },
      agreement: 'all',
      codex: { command: 'codex', api_key_env: 'OPENAI_API_KEY', workspace: 'project', unsandboxed: false },
    },
    observer: {
      host: '127.0.0.1',
      port: 0,
      allow_input: false,
      scrollback_bytes: 1_048_576,
      max_observers: 32,
      allowed_hosts: [],
    },
    mcp: {
      enabled: true,
      max_restart_attempts: 5,
      restart_delay_ms: 2000,
      health_interval_ms: 30_000,
      health_timeout_ms: 5000,
      health_failures: 3,
      queue_timeout_ms: 30_000,
      http_port: 0,
    },
    kanban: { max_retries: 3, roles_dir: './roles' },
    notify: { events: ['end', 'stuck', 'waiting', 'cap'], desktop: 'auto', webhook_format: 'auto', webhook_timeout_seconds: 10 },
    reporters: [],
    plugins: [],
    trusted_dirs: [],
    providers: {},
    settings: {},
  };
}
