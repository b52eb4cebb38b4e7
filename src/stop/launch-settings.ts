/**
 * The per-launch settings that put ccc's Stop (and StopFailure) hook into the claude it starts (`--settings`),
 * leaving the user's settings.json untouched. If the user passed their own `--settings`, ours are
 * merged into theirs so both apply.
 */
import path from 'node:path';
import { readSettingsFile } from '../settings/settings-file.js';
import { CccError } from '../errors.js';

export interface HookCommand {
  /** The executable and arguments that run `ccc supervisor-hook --proxy`. */
  argv: string[];
  timeoutSeconds: number;
}

/** `node /abs/dist/cli/main.js` — how this very ccc is started again. */
export function selfCommand(): string[] {
  return [process.execPath, process.argv[1] ?? ''];
}

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The Stop hook, and the same command as the StopFailure hook: a turn the model refused ends with
 * no Stop, only StopFailure (docs/design/claude-facts.md, "A turn refused in the TUI"), which is how ccc
 * learns that the agent's turn met the model's limit.
 */
export function stopHookSettings(hook: HookCommand): Record<string, unknown> {
  const entry = [{ hooks: [{ type: 'command', command: hook.argv.map(shellQuote).join(' '), timeout: hook.timeoutSeconds }] }];
  return { hooks: { Stop: entry, StopFailure: entry } };
}

/**
 * Returns claude args with ccc's settings added (merged into a user `--settings` when present).
 * `ours` may be made from the user's `--settings` (undefined without one), to keep what they set.
 */
export function withLaunchSettings(
  claudeArgs: readonly string[],
  oursOrMake: Record<string, unknown> | ((theirs: Record<string, unknown> | undefined) => Record<string, unknown>),
  cwd: string,
): string[] {
  const args = [...claudeArgs];
  const make = typeof oursOrMake === 'function' ? oursOrMake : () => oursOrMake;
  const at = args.findIndex((a) => a === '--settings' || a.startsWith('--settings='));
  if (at === -1) return ['--settings', JSON.stringify(make(undefined)), ...args];
  const inline = args[at]!.startsWith('--settings=');
  const value = inline ? args[at]!.slice('--settings='.length) : args[at + 1];
  if (value === undefined) throw new CccError('USAGE', '--settings needs a value (a JSON string or a file path)');
  const theirs = readSettingsValue(value, cwd);
  const merged = mergeHooks(theirs, make(theirs));
  args.splice(at, inline ? 1 : 2, '--settings', JSON.stringify(merged));
  return args;
}

function readSettingsValue(value: string, cwd: string): Record<string, unknown> {
  const text = value.trim().startsWith('{') ? value : readSettingsFile(path.resolve(cwd, value));
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new CccError('USAGE', `--settings ${value}: not a JSON object`);
}

function mergeHooks(theirs: Record<string, unknown>, ours: Record<string, unknown>): Record<string, unknown> {
  const theirHooks = (theirs.hooks ?? {}) as Record<string, unknown[]>;
  const ourHooks = ours.hooks as Record<string, unknown[]>;
  const hooks: Record<string, unknown[]> = { ...theirHooks };
  for (const [name, entries] of Object.entries(ourHooks)) hooks[name] = [...(theirHooks[name] ?? []), ...entries];
  return { ...theirs, ...ours, hooks };
}
