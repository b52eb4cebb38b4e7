/**
 * How `codex exec` is started for a review: headless (`--json`: JSONL events on stdout), not
 * saved (`--ephemeral`: no session file, nothing added to the user's `codex resume` list), the
 * verdict in a schema (`--output-schema`), the prompt on stdin (`-`), and in its kernel sandbox:
 *
 * - `project` workspace: `--sandbox read-only` in the project itself. Every write is refused by
 *   the kernel (bubblewrap and seccomp on Linux): the project, /tmp, the caches.
 * - `copy` workspace: `--sandbox workspace-write` in a throwaway copy (codex-workspace.ts), whose
 *   only writable places are the copy and its scratch directory: /tmp and $TMPDIR are taken out of
 *   codex's writable roots, so a project that lives under /tmp is still not writable.
 * - unsandboxed (only when the user opted in, and only in a copy): no kernel sandbox at all.
 *
 * The user's `config.toml` and execpolicy rules are not read (`--ignore-user-config`,
 * `--ignore-rules`): their MCP servers and approval rules run outside the sandbox, and their
 * model provider is replaced by `supervisor.codex` (its login in CODEX_HOME still applies).
 * Escalation is impossible: `codex exec` never asks for approval, so a command that asks to run
 * outside the sandbox is rejected (pinned on the real codex).
 */
import { leaveNoCaches } from '../reviewer/reviewer-launch.js';

/** `supervisor.codex` as the launch reads it. */
export interface CodexSettings {
  command: string;
  model?: string;
  base_url?: string;
  api_key_env: string;
  workspace: 'project' | 'copy';
  unsandboxed: boolean;
  price?: { input: number; cached_input: number; output: number };
}

export interface CodexLaunchOptions {
  settings: CodexSettings;
  /** Where the review runs: the project, or its throwaway copy. */
  dir: string;
  schemaFile: string;
  env: NodeJS.ProcessEnv;
  /** The copy's scratch directory (TMPDIR and the caches), when the review runs in a copy. */
  scratch?: string;
}

export interface CodexLaunch {
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The provider ccc defines when `base_url` is set: `wire_api = "responses"` is the only one codex accepts. */
const PROVIDER = 'ccc';

export function codexLaunch(options: CodexLaunchOptions): CodexLaunch {
  const { settings } = options;
  const args = ['exec', '--json', '--ephemeral', '--skip-git-repo-check', '--ignore-user-config', '--ignore-rules', '--color', 'never'];
  args.push(...sandboxArgs(options), '--cd', options.dir, '--output-schema', options.schemaFile);
  if (settings.base_url) {
    const provider = `{ name = "ccc", base_url = ${tomlString(settings.base_url)}, env_key = ${tomlString(settings.api_key_env)}, wire_api = "responses" }`;
    args.push('-c', `model_provider="${PROVIDER}"`, '-c', `model_providers.${PROVIDER}=${provider}`);
  }
  if (settings.model) args.push('--model', settings.model);
  args.push('-');
  return { args, env: { ...options.env, ...leaveNoCaches(options.env), ...scratchEnv(options.scratch), CCC_SUPERVISOR_HOOK: '1' } };
}

function sandboxArgs(options: CodexLaunchOptions): string[] {
  if (options.settings.unsandboxed) return ['--dangerously-bypass-approvals-and-sandbox'];
  if (options.scratch === undefined) return ['--sandbox', 'read-only'];
  return [
    '--sandbox',
    'workspace-write',
    '--add-dir',
    options.scratch,
    '-c',
    'sandbox_workspace_write.exclude_slash_tmp=true',
    '-c',
    'sandbox_workspace_write.exclude_tmpdir_env_var=true',
    '-c',
    'sandbox_workspace_write.network_access=false',
  ];
}

/** In a copy, what runners write outside the work tree goes to the scratch directory, the one other place they may write. */
function scratchEnv(scratch: string | undefined): NodeJS.ProcessEnv {
  if (scratch === undefined) return {};
  return { TMPDIR: scratch, XDG_CACHE_HOME: scratch, GOCACHE: `${scratch}/go-build`, npm_config_cache: `${scratch}/npm` };
}

/** A TOML basic string: a URL or a variable name, escaped. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}
