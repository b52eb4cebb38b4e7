/**
 * `ccc doctor` for the codex reviewer, when `codex` is among the configured checkers: the binary
 * and its version, the login or key it will use, and whether its kernel sandbox works here (the
 * same probe the reviewer runs before its first review, checkers/codex/codex-sandbox.ts). Each is
 * needed: without one, every codex review fails.
 */
import type { CodexSettings } from '../checkers/codex/codex-launch.js';
import { probeSandbox } from '../checkers/codex/codex-sandbox.js';
import { childRunner } from '../process/child-process.js';
import { findExecutable } from '../process/resolve-command.js';
import type { DoctorCheck } from './doctor-check.js';
import type { Place } from './session-checks.js';

/** The codex version ccc's tests drive (its devDependency): its events and flags are pinned there. */
export const TESTED_CODEX = '0.171.0';

export async function codexChecks(place: Place, settings: CodexSettings): Promise<DoctorCheck[]> {
  const base = { id: 'codex', title: 'codex', needed: true } as const;
  const file = findExecutable(settings.command, place.env, place.cwd);
  const fix = 'install the Codex CLI (npm install -g @openai/codex) or set CCC_CODEX (supervisor.codex.command) to it';
  if (file === undefined) return [{ ...base, status: 'missing', detail: `not found ("${settings.command}")`, fix }];
  const run = await codex(settings.command, ['--version'], place);
  const version = /codex-cli (\S+)/.exec(run.stdout)?.[1];
  if (version === undefined) return [{ ...base, status: 'missing', detail: `${file} does not run: ${run.said || `exit ${run.exitCode}`}`, fix }];
  const older = compareVersions(version, TESTED_CODEX) < 0 ? ` (older than ${TESTED_CODEX}, the version ccc is tested with: update it)` : '';
  return [{ ...base, status: 'ok', detail: `${version}${older}, ${file}` }, await loginCheck(place, settings), await sandboxCheck(place, settings)];
}

async function loginCheck(place: Place, settings: CodexSettings): Promise<DoctorCheck> {
  const base = { id: 'codex-login', title: 'codex login', needed: true } as const;
  if (settings.base_url) {
    const host = new URL(settings.base_url).host;
    return place.env[settings.api_key_env]
      ? { ...base, status: 'ok', detail: `${settings.api_key_env} is set, for ${host} (supervisor.codex.base_url)` }
      : {
          ...base,
          status: 'missing',
          detail: `${settings.api_key_env} is not set; supervisor.codex.base_url (${host}) reads the key from it`,
          fix: `export ${settings.api_key_env}=<your key>`,
        };
  }
  if (place.env.CODEX_API_KEY) return { ...base, status: 'ok', detail: 'CODEX_API_KEY is set' };
  const run = await codex(settings.command, ['login', 'status'], place);
  const said = run.stdout.trim() || run.said;
  return run.exitCode === 0
    ? { ...base, status: 'ok', detail: said.split('\n')[0]! }
    : {
        ...base,
        status: 'missing',
        detail: said.split('\n')[0] || 'not logged in',
        fix: 'run `codex login` (or `codex login --with-api-key`), or set CODEX_API_KEY',
      };
}

async function sandboxCheck(place: Place, settings: CodexSettings): Promise<DoctorCheck> {
  const base = { id: 'codex-sandbox', title: 'codex sandbox', needed: !settings.unsandboxed } as const;
  const state = await probeSandbox({ command: settings.command, env: place.env });
  if (state.works) return { ...base, status: 'ok', detail: 'works: a write inside it is refused' };
  if (settings.unsandboxed)
    return { ...base, status: 'note', detail: `does not work (${state.why}); reviews run unsandboxed in a throwaway copy (supervisor.codex.unsandboxed)` };
  return {
    ...base,
    status: 'missing',
    detail: `does not work: ${state.why}`,
    fix: 'allow unprivileged user namespaces (bubblewrap needs them), or set supervisor.codex.unsandboxed: true to review without a sandbox in a throwaway copy',
  };
}

async function codex(command: string, args: string[], place: Place): Promise<{ stdout: string; said: string; exitCode: number | null }> {
  const run = await childRunner.run({ command, args, cwd: place.cwd, env: place.env, timeoutMs: 30_000 });
  // Codex warns on stderr when its home is under /tmp; the rest is what it said.
  const said = run.stderrTail
    .split('\n')
    .filter((l) => l.trim() && !/^WARNING: proceeding/.test(l))
    .join(' ')
    .trim();
  return { stdout: run.stdout ?? '', said: run.spawnError?.message ?? said, exitCode: run.exitCode };
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}
