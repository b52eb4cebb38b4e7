/**
 * `ccc supervisor-mode [on|off] [--session <id>]`, for users of the installed Stop hook: turns the
 * review on or off for one Claude Code session (the `enabled` of its state file); without an
 * argument prints `on` or `off`, for status lines.
 *
 * The session is the one the command runs in: Claude Code gives the commands it runs (Bash tool
 * calls, `!` commands, hooks) CLAUDE_CODE_SESSION_ID (checked on 2.1.330).
 */
import { CccError } from '../../errors.js';
import type { RegisterCommand } from './register-command.js';

export const registerSupervisorModeCommand: RegisterCommand = (program) => {
  program
    .command('supervisor-mode')
    .description('Turn the supervisor on or off for the current Claude Code session; without an argument print on or off.')
    .argument('[mode]', 'on or off')
    .option('--session <id>', 'the session to change (default: $CLAUDE_CODE_SESSION_ID, set inside Claude Code)')
    .action(async (mode: string | undefined, options: { session?: string }) => {
      if (mode !== undefined && mode !== 'on' && mode !== 'off') {
        throw new CccError('USAGE', `ccc supervisor-mode takes "on" or "off" (got "${mode}"); without an argument it prints the current mode.`);
      }
      const { resolveConfigDir } = await import('../../config/config-dir.js');
      const { loadConfig } = await import('../../config/load.js');
      const { checkSessionId } = await import('../../state/paths.js');
      const { readSessionState, updateSessionState } = await import('../../state/session-state.js');
      const sessionId = checkSessionId(sessionFrom(options.session, process.env));
      if (mode === undefined) {
        const state = await readSessionState(resolveConfigDir(process.env, process.cwd()), sessionId);
        process.stdout.write(state?.enabled === false ? 'off\n' : 'on\n');
        return;
      }
      const { config, configDir } = await loadConfig({ cwd: process.cwd(), env: process.env });
      await updateSessionState(configDir, sessionId, (state) => ({ ...state, enabled: mode === 'on' }), {
        maxIterations: config.supervisor.max_iterations,
        saveOrFail: true,
      });
      process.stdout.write(`Supervisor mode ${mode} for session ${sessionId}.\n`);
    });
};

function sessionFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const id = flag ?? (env.CLAUDE_CODE_SESSION_ID || env.CLAUDE_SESSION_ID);
  if (id) return id;
  throw new CccError(
    'USAGE',
    'No Claude Code session to act on: CLAUDE_CODE_SESSION_ID is not set. Run this inside the session ' +
      '(ask the agent, or type `! ccc supervisor-mode off` in Claude Code), or name it with --session <id>.',
  );
}
