/**
 * `ccc --version`: ccc's own version, then claude's when it can be found. Never fails for want of
 * claude (that is what a user may be checking), nor for a broken config file.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { findExecutable } from '../process/resolve-command.js';

const run = promisify(execFile);

/** ccc's version, from the package.json two levels up from both `src/cli/` and `dist/cli/`. */
export function cccVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function versionText(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  const command = await claudeCommand(options);
  const claude = findExecutable(command, options.env, options.cwd);
  const second = claude === undefined ? `claude: not found ("${command}"; install Claude Code or set CCC_CLAUDE)` : `claude ${await claudeVersion(claude, options)}`;
  return `ccc ${cccVersion()}\n${second}\n`;
}

/** The configured claude command (CCC_CLAUDE, claude.command); `claude` when the config cannot be read. */
async function claudeCommand(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  try {
    const { loadConfig } = await import('../config/load.js');
    return (await loadConfig({ cwd: options.cwd, env: options.env })).config.claude.command;
  } catch {
    return options.env.CCC_CLAUDE || 'claude';
  }
}

async function claudeVersion(file: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  try {
    const { stdout } = await run(file, ['--version'], { cwd: options.cwd, env: options.env, timeout: 10_000 });
    return stdout.trim().split('\n')[0] ?? '(no version printed)';
  } catch (error) {
    return `(${file} --version failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}
