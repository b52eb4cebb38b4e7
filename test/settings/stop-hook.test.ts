import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { installStopHook, isCccHookCommand, uninstallStopHook, type StopHookSpec } from '../../src/settings/stop-hook.js';

const spec: StopHookSpec = { command: '/usr/local/bin/ccc supervisor-hook', timeout: 660 };
const SRC = '/home/u/.claude/settings.json';

const userSettings = () => ({
  model: 'opus',
  env: { MY_VAR: '1' },
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  someFutureKey: { nested: [1, 'two', { three: null }] },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/home/u/bin/guard.sh', timeout: 5 }] }],
    UnknownEvent: { whatever: true },
  },
});

describe('installing the Stop hook (docs/design/stop-path.md)', () => {
  it('adds one Stop entry with the absolute ccc command and the review timeout plus a margin', () => {
    const { settings, action } = installStopHook({}, spec, SRC);
    expect(action).toBe('added');
    expect(settings).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: '/usr/local/bin/ccc supervisor-hook', timeout: 660 }] }] } });
    expect(JSON.stringify(settings)).not.toContain('--state-dir');
  });

  it("keeps the user's keys, hooks and unknown fields, adding one Stop entry after theirs", () => {
    const before = userSettings();
    const { settings } = installStopHook(before, spec, SRC);
    const { hooks, ...rest } = settings as ReturnType<typeof userSettings>;
    const { hooks: beforeHooks, ...beforeRest } = userSettings();
    expect(rest).toEqual(beforeRest);
    expect(hooks.PreToolUse).toEqual(beforeHooks.PreToolUse);
    expect(hooks.UnknownEvent).toEqual(beforeHooks.UnknownEvent);
    expect(hooks.Stop).toEqual([...beforeHooks.Stop, { hooks: [{ type: 'command', command: spec.command, timeout: 660 }] }]);
    expect(before).toEqual(userSettings()); // the input object is not mutated
  });

  it('adds nothing the second time', () => {
    const once = installStopHook(userSettings(), spec, SRC).settings;
    const twice = installStopHook(once, spec, SRC);
    expect(twice.action).toBe('unchanged');
    expect(twice.settings).toEqual(once);
  });

  it('updates its own entry in place when the path or timeout changed, and drops duplicates', () => {
    const old = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: '/old/ccc supervisor-hook', timeout: 30 },
              { type: 'command', command: 'mine' },
            ],
          },
          { hooks: [{ type: 'command', command: '/older/ccc supervisor-hook' }] },
        ],
      },
    };
    const { settings, action } = installStopHook(old, spec, SRC);
    expect(action).toBe('updated');
    expect(settings).toEqual({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: spec.command, timeout: 660 },
              { type: 'command', command: 'mine' },
            ],
          },
        ],
      },
    });
  });

  it("keeps the user's own empty Stop group and odd entries untouched", () => {
    const odd = { hooks: { Stop: [{ hooks: [] }, 'not-a-group', { matcher: 'x' }] } };
    expect(installStopHook(odd, spec, SRC).settings).toEqual({
      hooks: { Stop: [{ hooks: [] }, 'not-a-group', { matcher: 'x' }, { hooks: [{ type: 'command', command: spec.command, timeout: 660 }] }] },
    });
    expect(uninstallStopHook(installStopHook(odd, spec, SRC).settings).settings).toEqual(odd);
  });

  it('keeps a "__proto__" key of the user as a plain key', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const after = installStopHook(parsed, spec, SRC).settings;
    expect(JSON.parse(JSON.stringify(uninstallStopHook(after).settings))).toEqual(parsed);
    expect(JSON.stringify(after)).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a settings object whose hooks have the wrong shape', () => {
    expect(() => installStopHook({ hooks: [] }, spec, SRC)).toThrow(/"hooks" is not an object/);
    expect(() => installStopHook({ hooks: { Stop: {} } }, spec, SRC)).toThrow(/"hooks.Stop" is not an array/);
  });

  it('recognises its command by the trailing " supervisor-hook" only', () => {
    expect(isCccHookCommand("'/opt/my tools/node' /x/main.js supervisor-hook")).toBe(true);
    expect(isCccHookCommand('supervisor-hook')).toBe(false);
    expect(isCccHookCommand('my-supervisor-hook')).toBe(false);
    expect(isCccHookCommand('ccc supervisor-hook --other')).toBe(false);
  });
});

describe('uninstalling', () => {
  it('restores the original settings exactly', () => {
    const installed = installStopHook(userSettings(), spec, SRC).settings;
    const { settings, removed } = uninstallStopHook(installed);
    expect(removed).toBe(1);
    expect(settings).toEqual(userSettings());
  });

  it('removes the containers it created on a file that had no hooks', () => {
    const installed = installStopHook({ model: 'opus' }, spec, SRC).settings;
    expect(uninstallStopHook(installed).settings).toEqual({ model: 'opus' });
  });

  it("removes only ccc's entry from a group the user also uses", () => {
    const mixed = {
      hooks: {
        Stop: [
          {
            matcher: '',
            hooks: [
              { type: 'command', command: 'mine' },
              { type: 'command', command: 'x supervisor-hook' },
            ],
          },
        ],
      },
    };
    expect(uninstallStopHook(mixed).settings).toEqual({ hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'mine' }] }] } });
  });

  it('changes nothing where ccc never installed', () => {
    const mine = { hooks: {}, other: 1 };
    expect(uninstallStopHook(mine)).toEqual({ settings: mine, removed: 0 });
  });
});

// Arbitrary Claude Code settings: JSON values everywhere, including keys named like ccc's own.
const hookEntry = fc.oneof(
  fc.record({ type: fc.constant('command'), command: fc.string() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('command'), command: fc.string().map((s) => `${s} supervisor-hook`), timeout: fc.nat() }),
  fc.jsonValue(),
);
const group = fc.oneof(fc.record({ matcher: fc.string(), hooks: fc.array(hookEntry, { maxLength: 4 }) }, { requiredKeys: ['hooks'] }), fc.jsonValue());
const hooksValue = fc.dictionary(
  fc.oneof(fc.constant('Stop'), fc.constant('PreToolUse'), fc.string()),
  fc.oneof(fc.array(group, { maxLength: 4 }), fc.jsonValue()),
);
const settingsArb = fc
  .tuple(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }), fc.option(hooksValue, { nil: undefined }))
  .map(([rest, hooks]) => (hooks === undefined ? rest : { ...rest, hooks }) as Record<string, unknown>);

function installable(settings: Record<string, unknown>): boolean {
  const hooks = settings.hooks;
  if (hooks === undefined) return true;
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return false;
  const stop = (hooks as Record<string, unknown>).Stop;
  return stop === undefined || Array.isArray(stop);
}

const isCccEntry = (h: unknown) => isCccHookCommand((h as { command?: unknown } | null)?.command);

/** The settings with ccc's Stop hooks taken out (only there: elsewhere such a command is the user's). */
function userContent(settings: Record<string, unknown>): Record<string, unknown> {
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks) || !Array.isArray(hooks.Stop)) return settings;
  const Stop = hooks.Stop.map((g) =>
    g && typeof g === 'object' && Array.isArray((g as { hooks?: unknown }).hooks)
      ? { ...g, hooks: (g as { hooks: unknown[] }).hooks.filter((h) => !isCccEntry(h)) }
      : g,
  );
  return { ...settings, hooks: { ...hooks, Stop } };
}

function cccStopHooks(settings: Record<string, unknown>): unknown[] {
  const stop = (settings.hooks as { Stop?: unknown } | undefined)?.Stop;
  if (!Array.isArray(stop)) return [];
  return stop
    .flatMap((g) => (g && typeof g === 'object' && Array.isArray((g as { hooks?: unknown }).hooks) ? (g as { hooks: unknown[] }).hooks : []))
    .filter(isCccEntry);
}

describe('settings merge fuzzing', () => {
  it('install never loses or changes an unrelated key, and leaves exactly one ccc hook', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        fc.pre(installable(settings));
        const snapshot = structuredClone(settings);
        const { settings: after } = installStopHook(settings, spec, SRC);
        expect(settings).toEqual(snapshot);
        for (const key of Object.keys(settings)) if (key !== 'hooks') expect(after[key]).toEqual(settings[key]);
        const hooksBefore = (settings.hooks ?? {}) as Record<string, unknown>;
        const hooksAfter = after.hooks as Record<string, unknown>;
        for (const key of Object.keys(hooksBefore)) if (key !== 'Stop') expect(hooksAfter[key]).toEqual(hooksBefore[key]);
        expect(cccStopHooks(after)).toEqual([{ type: 'command', command: spec.command, timeout: 660 }]);
        expect(normalizeEmpty(userContent(after))).toEqual(normalizeEmpty(userContent(settings)));
        expect(installStopHook(after, spec, SRC).action).toBe('unchanged');
      }),
      { numRuns: 500 },
    );
  });

  it("install then uninstall keeps every piece of the user's content", () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        fc.pre(installable(settings));
        const after = uninstallStopHook(installStopHook(settings, spec, SRC).settings).settings;
        expect(cccStopHooks(after)).toEqual([]);
        const expected = userContent(settings);
        const actual = userContent(after);
        // The only thing uninstall may drop beyond ccc's hooks: Stop groups and containers left empty.
        expect(normalizeEmpty(actual)).toEqual(normalizeEmpty(expected));
      }),
      { numRuns: 500 },
    );
  });
});

function normalizeEmpty(settings: Record<string, unknown>): Record<string, unknown> {
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return settings;
  const next: Record<string, unknown> = { ...hooks };
  if (Array.isArray(next.Stop)) {
    next.Stop = next.Stop.filter(
      (g) =>
        !(
          g &&
          typeof g === 'object' &&
          !Array.isArray(g) &&
          Array.isArray((g as { hooks?: unknown }).hooks) &&
          (g as { hooks: unknown[] }).hooks.length === 0 &&
          Object.keys(g).every((k) => k === 'hooks' || k === 'matcher')
        ),
    );
    if ((next.Stop as unknown[]).length === 0) delete next.Stop;
  }
  const result: Record<string, unknown> = { ...settings, hooks: next };
  if (Object.keys(next).length === 0) delete result.hooks;
  return result;
}
