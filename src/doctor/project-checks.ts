/**
 * What the project and Claude Code's settings give a session here: the Stop hook for sessions
 * ccc does not start, the test command ccc detects, and what the reviewer may run. None of it
 * is needed for a supervised session; each says what it means when it is absent.
 */
import { ruleCommandsOf } from '../checkers/registry.js';
import { READ_ONLY_TOOLS, reviewerPolicy } from '../checkers/reviewer/reviewer-policy.js';
import type { ResolvedConfig } from '../config/types.js';
import { detectTestCommand } from '../init/test-command.js';
import { readJsonObjectFile } from '../settings/json-file.js';
import { projectSettingsPath, userSettingsPath } from '../settings/settings-files.js';
import { uninstallStopHook } from '../settings/stop-hook.js';
import { errorText, type DoctorCheck } from './doctor-check.js';
import type { Place } from './session-checks.js';

export async function stopHookCheck(place: Place): Promise<DoctorCheck> {
  const base = { id: 'stop-hook', title: 'Stop hook', needed: false } as const;
  const files = [userSettingsPath(place.env), projectSettingsPath(place.cwd)];
  const installedIn: string[] = [];
  for (const file of files) {
    try {
      // What uninstalling would remove is exactly ccc's hook entries: counted, nothing written.
      if (uninstallStopHook((await readJsonObjectFile(file)).value).removed > 0) installedIn.push(file);
    } catch (error) {
      return { ...base, status: 'missing', detail: errorText(error), fix: `correct ${file}` };
    }
  }
  if (installedIn.length > 0) return { ...base, status: 'ok', detail: `installed in ${installedIn.join(' and ')}` };
  return { ...base, status: 'note', detail: `not installed (${files.join(', ')}): only claude sessions ccc does not start need it; \`ccc hook install\` adds it` };
}

export function testCommandCheck(place: Place): DoctorCheck {
  const command = detectTestCommand(place.cwd);
  const base = { id: 'test-command', title: 'test command', status: 'note', needed: false } as const;
  return command
    ? { ...base, detail: `${command} (detected in ${place.cwd}); the reviewer may run it` }
    : { ...base, detail: `none detected in ${place.cwd} (package.json "test", go.mod, Cargo.toml, pytest): the reviewer runs tests only as supervisor.reviewer.allow or a rule checker allows` };
}

export function reviewerCheck(place: Place, resolved: ResolvedConfig | undefined): DoctorCheck {
  const base = { id: 'reviewer', title: 'reviewer may run', status: 'note', needed: false } as const;
  if (!resolved) return { ...base, detail: 'unknown: the configuration did not load' };
  const { config } = resolved;
  const policy = reviewerPolicy({ testCommand: detectTestCommand(place.cwd), ruleCommands: ruleCommandsOf(config), allow: config.supervisor.reviewer.allow });
  const parts = [`reading (${READ_ONLY_TOOLS.join(', ')}), read-only git and shell commands`];
  if (policy.exact.length > 0) parts.push(`exactly: ${policy.exact.join(', ')}`);
  if (policy.prefixes.length > 0) parts.push(`with any arguments: ${policy.prefixes.join(', ')}`);
  if (policy.tools.length > 0) parts.push(`tools: ${policy.tools.join(', ')}`);
  return { ...base, detail: parts.join('; ') };
}
