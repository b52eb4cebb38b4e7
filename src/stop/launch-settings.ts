/**
 * The per-launch settings that put ccc's Stop (and StopFailure) hook into the claude it starts (`--settings`),
 * leaving the user's settings.json untouched. If the user passed their own `--settings`, ours are
 * merged into theirs so both apply.
 */
import { userSettingsArg } from '../settings/settings-file.js';

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
  const theirs = userSettingsArg(args, cwd);
  if (!theirs) return ['--settings', JSON.stringify(make(undefined)), ...args];
  args.splice(theirs.at, theirs.words, '--settings', JSON.stringify(mergeHooks(theirs.value, make(theirs.value))));
  return args;
}

function mergeHooks(theirs: Record<string, unknown>, ours: Record<string, unknown>): Record<string, unknown> {
  const theirHooks = (theirs.hooks ?? {}) as Record<string, unknown[]>;
  const ourHooks = ours.hooks as Record<string, unknown[]>;
  const hooks: Record<string, unknown[]> = { ...theirHooks };
  for (const [name, entries] of Object.entries(ourHooks)) hooks[name] = [...(theirHooks[name] ?? []), ...entries];
  return { ...theirs, ...ours, hooks };
}
