/**
 * What every supervised session needs before the agent starts: the configuration, claude, a
 * writable config directory and the reviewer's SUPERVISOR.md. The same functions the session's
 * own preflight uses, so the doctor and a launch never disagree.
 */
import { supportOf } from '../claude/claude-check.js';
import { CLAUDE_UPDATE_FIX, MINIMUM_CLAUDE, NEWEST_TESTED_CLAUDE } from '../claude/claude-support.js';
import { clip } from '../value-text.js';
import { configuredClaudeCommand } from '../config/claude-command.js';
import { loadConfig } from '../config/load.js';
import { promptPlace } from '../config/show.js';
import type { ResolvedConfig } from '../config/types.js';
import { findExecutable } from '../process/resolve-command.js';
import { promptInUse } from './prompt-in-use.js';
import { requireUsableConfigDir } from '../state/config-dir-check.js';
import type { DoctorCheck } from './doctor-check.js';
import { errorText } from '../errors.js';

export interface Place {
  cwd: string;
  env: NodeJS.ProcessEnv;
  configDir: string;
}

export async function configCheck(place: Place): Promise<{ check: DoctorCheck; resolved?: ResolvedConfig }> {
  try {
    const resolved = await loadConfig({ cwd: place.cwd, env: place.env });
    const files = [resolved.files.global, resolved.files.project].filter(Boolean);
    const warnings = resolved.warnings.length > 0 ? `; warnings: ${resolved.warnings.join('; ')}` : '';
    const detail = `${files.length > 0 ? files.join(', ') : 'no config file: the defaults'}${warnings}`;
    return { resolved, check: { id: 'config', title: 'configuration', status: 'ok', needed: true, detail } };
  } catch (error) {
    return {
      check: {
        id: 'config',
        title: 'configuration',
        status: 'missing',
        needed: true,
        detail: errorText(error),
        fix: 'correct the file it names (`ccc config` shows what loads)',
      },
    };
  }
}

export async function claudeCheck(place: Place, resolved: ResolvedConfig | undefined): Promise<DoctorCheck> {
  const command = resolved?.config.claude.command ?? (await configuredClaudeCommand(place));
  const file = findExecutable(command, place.env, place.cwd);
  const base = { id: 'claude', title: 'claude', needed: true } as const;
  if (file === undefined) return { ...base, status: 'missing', detail: `not found ("${command}")`, fix: CLAUDE_UPDATE_FIX };
  // The same check (and the same remembered `--version`) as a run's: the doctor and a launch never disagree.
  const support = await supportOf({ command, file, cwd: place.cwd, env: place.env, configDir: place.configDir });
  if (support.kind === 'unreadable' && support.line.startsWith('('))
    return { ...base, status: 'missing', detail: `${file} does not run: ${support.line}`, fix: CLAUDE_UPDATE_FIX };
  if (support.kind === 'unreadable')
    return {
      ...base,
      status: 'missing',
      detail: `${file}: no version in what \`--version\` printed (${JSON.stringify(clip(support.line, 80))})`,
      fix: CLAUDE_UPDATE_FIX,
    };
  if (support.kind === 'too-old')
    return { ...base, status: 'missing', detail: `${support.version}, ${file}: older than ${MINIMUM_CLAUDE}, the oldest ccc supports`, fix: CLAUDE_UPDATE_FIX };
  if (support.newerThanTested)
    // Runs (a note, not a lack): the platform may have moved under one of ccc's promises since.
    return {
      ...base,
      needed: false,
      status: 'note',
      detail: `${support.version}, ${file}: newer than ${NEWEST_TESTED_CLAUDE}, the newest claude ccc was tested with (supported from ${MINIMUM_CLAUDE})`,
    };
  return { ...base, status: 'ok', detail: `${support.version}, ${file} (supported: ${MINIMUM_CLAUDE} to ${NEWEST_TESTED_CLAUDE}, tested)` };
}

export async function configDirCheck(place: Place): Promise<DoctorCheck> {
  const base = { id: 'config-dir', title: 'config directory', needed: true } as const;
  try {
    await requireUsableConfigDir(place.configDir, place.env);
    return { ...base, status: 'ok', detail: `${place.configDir}, writable` };
  } catch (error) {
    return { ...base, status: 'missing', detail: errorText(error), fix: 'make it writable, or set CCC_CONFIG_DIR to a writable directory' };
  }
}

export function promptCheck(place: Place, resolved: ResolvedConfig | undefined): DoctorCheck {
  const base = { id: 'supervisor-prompt', title: 'SUPERVISOR.md', needed: true } as const;
  if (!resolved) return { ...base, status: 'missing', detail: 'unknown: the configuration did not load', fix: 'correct the configuration first' };
  const prompt = promptInUse({ cwd: place.cwd, resolved, env: place.env });
  if (prompt.path) return { ...base, status: 'ok', detail: `${promptPlace(prompt)} (${prompt.why})` };
  // `ccc init` never writes over what stands there, so it is no fix for an unusable file.
  const fix = prompt.unusable
    ? `move or remove ${prompt.unusable}, then put your review instructions there (a text file) or run \`ccc init\``
    : 'run `ccc init` in the project';
  return { ...base, status: 'missing', detail: prompt.why, fix };
}
