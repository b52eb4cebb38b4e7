/**
 * What the project and Claude Code's settings give a session here: the Stop hook for sessions
 * ccc does not start, the test command ccc detects, and what the reviewer may run. None of it
 * is needed for a supervised session; each says what it means when it is absent.
 */
import { reviewerPolicyEntries } from '../checkers/reviewer/policy-text.js';
import { READ_ONLY_TOOLS } from '../checkers/reviewer/reviewer-policy.js';
import { ruleCommandsOf } from '../checkers/rule-commands.js';
import type { ResolvedConfig } from '../config/types.js';
import { detectTestCommands } from '../init/test-command.js';
import { readJsonObjectFile } from '../settings/json-file.js';
import { projectSettingsPath, userSettingsPath } from '../settings/settings-files.js';
import { uninstallStopHook } from '../settings/stop-hook.js';
import type { DoctorCheck } from './doctor-check.js';
import { errorText } from '../errors.js';
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
  return {
    ...base,
    status: 'note',
    detail: `not installed (${files.join(', ')}): only claude sessions ccc does not start need it; \`ccc hook install\` adds it`,
  };
}

export function testCommandCheck(place: Place): DoctorCheck {
  const tests = detectTestCommands(place.cwd);
  const base = { id: 'test-command', title: 'test command', status: 'note', needed: false } as const;
  return tests.length > 0
    ? {
        ...base,
        detail: `${tests.map((t) => `${t.command} (${t.why})`).join(', ')} in ${place.cwd}; the reviewer may run ${tests.length === 1 ? 'it' : 'them'}`,
      }
    : { ...base, detail: `none detected in ${place.cwd}: the reviewer runs tests only as supervisor.reviewer.allow or a rule checker allows` };
}

export function reviewerCheck(place: Place, resolved: ResolvedConfig | undefined): DoctorCheck {
  const base = { id: 'reviewer', title: 'reviewer may run', status: 'note', needed: false } as const;
  if (!resolved) return { ...base, detail: 'unknown: the configuration did not load' };
  const { config } = resolved;
  const entries = reviewerPolicyEntries({
    tests: detectTestCommands(place.cwd),
    ruleCommands: ruleCommandsOf(config),
    allow: config.supervisor.reviewer.allow,
  });
  const parts = [`reading (${READ_ONLY_TOOLS.join(', ')}), read-only git and shell commands`, ...entries.map((e) => `${e.command} (${e.why})`)];
  return { ...base, detail: parts.join('; ') };
}
