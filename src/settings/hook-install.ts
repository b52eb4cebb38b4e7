/**
 * `ccc hook install|uninstall`: puts ccc's Stop hook (docs/design/stop-path.md) into a Claude Code settings
 * file (or takes it out) through the safe writer, and says what happened in the user's words.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { updateJsonObjectFile, type JsonFileChange } from './json-file.js';
import { installStopHook, uninstallStopHook, type InstallAction, type StopHookSpec } from './stop-hook.js';
import { installStatusLine, uninstallStatusLine } from './status-line-install.js';

export interface HookFileOptions {
  file: string;
  dryRun?: boolean;
  now?: () => Date;
}

export interface HookInstallResult {
  change: JsonFileChange;
  action: InstallAction;
  report: string;
}

/**
 * `statusLineDir`: where ccc's status line records each session's input (the standalone hook's
 * agent spend, src/stop/status-line.ts); installed with the hook, wrapping the user's own line.
 */
export async function installHookInFile(options: HookFileOptions & { spec: StopHookSpec; statusLineDir: string }): Promise<HookInstallResult> {
  let action: InstallAction = 'unchanged';
  const change = await updateJsonObjectFile(
    options.file,
    (current) => {
      const result = installStopHook(current, options.spec, options.file);
      const line = installStatusLine(result.settings, options.statusLineDir);
      action = result.action === 'unchanged' && line.action !== 'unchanged' ? 'updated' : result.action;
      return line.settings;
    },
    { dryRun: options.dryRun, now: options.now },
  );
  const hook = `${options.spec.command} (timeout ${options.spec.timeout} s)`;
  if (options.dryRun) return { change, action, report: dryRunReport(options.file, change) };
  if (action === 'unchanged') return { change, action, report: `The ccc Stop hook is already in ${options.file}: ${hook}. Nothing changed.\n` };
  const lines = [
    `${action === 'added' ? 'Added the ccc Stop hook to' : 'Updated the ccc Stop hook in'} ${options.file}: ${hook}.`,
    backupLine(change),
    'Every Claude Code session using this file now has its work reviewed when it stops.',
    "Its status line (your own runs inside it, as before) tells the hook the session's cost, for the cost caps.",
    'Turn that off for one session with `ccc supervisor-mode off`; remove the hook with `ccc hook uninstall`.',
  ];
  return { change, action, report: `${lines.join('\n')}\n` };
}

export async function uninstallHookFromFile(options: HookFileOptions): Promise<{ change: JsonFileChange; removed: number; report: string }> {
  let removed = 0;
  const change = await updateJsonObjectFile(
    options.file,
    (current) => {
      const result = uninstallStopHook(current);
      const line = uninstallStatusLine(result.settings);
      removed = result.removed + (line.removed ? 1 : 0);
      return line.settings;
    },
    { dryRun: options.dryRun, now: options.now },
  );
  if (options.dryRun) return { change, removed, report: dryRunReport(options.file, change) };
  if (removed === 0) return { change, removed, report: `No ccc Stop hook in ${options.file}. Nothing changed.\n` };
  return { change, removed, report: `Removed the ccc Stop hook from ${options.file}.\n${backupLine(change)}\n` };
}

function backupLine(change: JsonFileChange): string {
  return change.backupPath ? `Backup of the previous content: ${change.backupPath}` : `${change.path} did not exist before; it was created.`;
}

function dryRunReport(file: string, change: JsonFileChange): string {
  if (!change.changed) return `Dry run: ${file} would not change.\n`;
  const from = `${file}${change.before.exists ? '' : ' (does not exist)'}`;
  const diff = createTwoFilesPatch(from, `${file} (after)`, change.before.text, change.afterText, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY });
  return `${diff}Dry run: nothing was written.\n`;
}
