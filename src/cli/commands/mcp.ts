/**
 * `ccc mcp [--no-supervisor]`: the MCP server on stdio (docs/design/mcp.md).
 * Configuration comes from the usual layers, with the SUPERVISOR_* variables (config/env-overrides.ts).
 */
import type { RegisterCommand } from './register-command.js';

export const registerMcpCommand: RegisterCommand = (program, setExit) => {
  program
    .command('mcp')
    .description('MCP server on stdio: self_test, supervisor_status, collect_feedback; survives its own crashes')
    .option('--no-supervisor', 'run the tools in this one process (no restartable worker)')
    .option('--config <path>', 'use this project config file instead of searching for one')
    .action(async (flags: { supervisor: boolean; config?: string }) => {
      const { loadConfig } = await import('../../config/load.js');
      const { mcpOptionsFrom } = await import('../../mcp/options.js');
      const { runMcp } = await import('../../mcp/run-mcp.js');
      const resolved = await loadConfig({ cwd: process.cwd(), env: process.env, configPath: flags.config });
      for (const warning of resolved.warnings) process.stderr.write(`ccc: warning: ${warning}\n`);
      const options = mcpOptionsFrom(resolved, { noSupervisor: flags.supervisor === false });
      const code = await runMcp(options, { stdin: process.stdin, stdout: process.stdout, env: process.env });
      // Everything is closed by now; this only guards against a handle someone forgot to close,
      // which would leave an MCP server running after its client has gone.
      setTimeout(() => process.exit(code), 3000).unref();
      setExit(code);
    });
};
