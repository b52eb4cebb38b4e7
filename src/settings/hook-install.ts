/**
 * `ccc hook install|uninstall`: puts ccc's Stop hook (docs/design/stop-path.md) into a Claude Code settings
 * file (or takes it out) through the safe writer, and says what happened in the user's words.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { updateJsonObjectFile, type JsonFileChange } from './json-file.js';
import { installStopHook, uninstallStopHook, type InstallAction, type StopHookSpec } from './stop-hook.js';

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

export async function installHookInFile(options: HookFileOptions & { spec: StopHookSpec }): Promise<HookInstallResult> {
  let action: InstallAction = 'unchanged';
  const change = await updateJsonObjectFile(
    options.file,
    (current) => {
      const result = installStopHook(current, options.spec, options.file);
      action = result.action;
      return result.settings;
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
      removed = result.removed;
      return result.settings;
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
