/**
 * ccc's Stop hook entry (`<ccc> supervisor-hook`, docs/design/stop-path.md) and how it is merged into
 * (and taken out of) a Claude Code `settings.json` object. Pure functions over parsed JSON: the file I/O is json-file.ts.
 *
 * Merging rules, so that nothing of the user's is ever lost:
 * - every key other than `hooks.Stop` is carried over as is (unknown ones too);
 * - the user's own hooks (other events, other Stop entries) are never touched;
 * - ccc's entry is recognised by its command ending in ` supervisor-hook`, so installing twice
 *   adds nothing and a changed path or timeout updates the entry in place;
 * - uninstall removes only ccc's entries and the containers that became empty because of it.
 */
import { CccError } from '../errors.js';
import { isPlainObject } from '../config/rules.js';
import type { JsonObject } from './json-file.js';

export interface StopHookSpec {
  /** `<absolute path of ccc> supervisor-hook`, see ccc-command.ts. */
  command: string;
  /** Seconds; Claude Code kills the hook after this (src/loop/hook-timeout.ts). */
  timeout: number;
}

export interface CommandHook {
  type: 'command';
  command: string;
  timeout: number;
}

export function stopHookEntry(spec: StopHookSpec): CommandHook {
  return { type: 'command', command: spec.command, timeout: spec.timeout };
}

export function isCccHookCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(' supervisor-hook');
}

function isCccHook(hook: unknown): boolean {
  return isPlainObject(hook) && isCccHookCommand(hook.command);
}

export type InstallAction = 'added' | 'updated' | 'unchanged';

/** Returns a new settings object with ccc's Stop hook present exactly once. */
export function installStopHook(settings: JsonObject, spec: StopHookSpec, source: string): { settings: JsonObject; action: InstallAction } {
  const hooks = hooksObject(settings, source);
  const stop = stopArray(hooks, source);
  const wanted = stopHookEntry(spec);
  let seen = false;
  let action: InstallAction = 'unchanged';
  const groups = stop.flatMap((group) => {
    if (!isPlainObject(group) || !Array.isArray(group.hooks) || !group.hooks.some(isCccHook)) return [group];
    const kept = group.hooks.flatMap((hook: unknown) => {
      if (!isCccHook(hook)) return [hook];
      if (seen) {
        action = 'updated'; // a duplicate from an older install: keep one entry only
        return [];
      }
      seen = true;
      const current = hook as JsonObject;
      if (current.type === wanted.type && current.command === wanted.command && current.timeout === wanted.timeout) return [hook];
      action = 'updated';
      return [{ ...current, ...wanted }];
    });
    const next = { ...group, hooks: kept };
    return isEmptiedGroup(next) ? [] : [next];
  });
  if (!seen) {
    groups.push({ hooks: [wanted] });
    action = 'added';
  }
  if (action === 'unchanged') return { settings, action };
  return { settings: { ...settings, hooks: { ...hooks, Stop: groups } }, action };
}

/** Returns a new settings object without ccc's Stop hook, and how many entries were removed. */
export function uninstallStopHook(settings: JsonObject): { settings: JsonObject; removed: number } {
  const hooks = settings.hooks;
  if (!isPlainObject(hooks) || !Array.isArray(hooks.Stop)) return { settings, removed: 0 };
  let removed = 0;
  const groups = hooks.Stop.flatMap((group: unknown) => {
    if (!isPlainObject(group) || !Array.isArray(group.hooks)) return [group];
    const kept = group.hooks.filter((hook: unknown) => !isCccHook(hook));
    if (kept.length === group.hooks.length) return [group];
    removed += group.hooks.length - kept.length;
    const next = { ...group, hooks: kept };
    return isEmptiedGroup(next) ? [] : [next];
  });
  if (removed === 0) return { settings, removed };
  const nextHooks: JsonObject = { ...hooks, Stop: groups };
  if (groups.length === 0) delete nextHooks.Stop;
  const next: JsonObject = { ...settings, hooks: nextHooks };
  if (Object.keys(nextHooks).length === 0) delete next.hooks;
  return { settings: next, removed };
}

/** A group left with no hooks and nothing but a matcher was ccc's alone: it goes too. */
function isEmptiedGroup(group: unknown): boolean {
  if (!isPlainObject(group) || !Array.isArray(group.hooks) || group.hooks.length > 0) return false;
  return Object.keys(group).every((key) => key === 'hooks' || key === 'matcher');
}

function hooksObject(settings: JsonObject, source: string): JsonObject {
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (!isPlainObject(hooks)) throw malformed(source, '"hooks" is not an object');
  return hooks;
}

function stopArray(hooks: JsonObject, source: string): unknown[] {
  const stop = hooks.Stop;
  if (stop === undefined) return [];
  if (!Array.isArray(stop)) throw malformed(source, '"hooks.Stop" is not an array');
  return stop;
}

function malformed(source: string, why: string): CccError {
  return new CccError(
    'SETTINGS_CORRUPT',
    `${source} cannot be used: ${why} (Claude Code expects the shape {"hooks": {"Stop": [{"hooks": [...]}]}}). ccc did not change it. Fix that key and run the command again.`,
    { data: { file: source } },
  );
}
