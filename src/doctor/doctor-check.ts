/**
 * One line of `ccc doctor`: something a ccc here has or lacks, and how to get it when it lacks it.
 */
type CheckStatus = 'ok' | 'missing' | 'note';

export interface DoctorCheck {
  id:
    | 'claude'
    | 'config'
    | 'config-dir'
    | 'supervisor-prompt'
    | 'relay'
    | 'lifeline'
    | 'mcp-store'
    | 'stop-hook'
    | 'test-command'
    | 'reviewer'
    | 'codex'
    | 'codex-login'
    | 'codex-sandbox';
  title: string;
  /** `ok`: there and working; `missing`: absent or broken, `fix` says what to do; `note`: information. */
  status: CheckStatus;
  /** A supervised session needs it: one of these missing makes `ccc doctor` exit 1. */
  needed: boolean;
  detail: string;
  fix?: string;
}
