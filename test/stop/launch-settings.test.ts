import { describe, expect, it } from 'vitest';
import { shellQuote, stopHookSettings, withLaunchSettings } from '../../src/stop/launch-settings.js';

describe('launch settings', () => {
  const ours = stopHookSettings({ argv: ['/usr/bin/node', '/opt/my ccc/main.js', 'supervisor-hook', '--proxy'], timeoutSeconds: 630 });

  it('quotes the hook command for the shell and carries the timeout', () => {
    const hook = (ours.hooks as { Stop: Array<{ hooks: unknown[] }> }).Stop[0]!.hooks[0];
    expect(hook).toEqual({ type: 'command', command: "/usr/bin/node '/opt/my ccc/main.js' supervisor-hook --proxy", timeout: 630 });
    // A turn the model refused ends with StopFailure, not Stop: the same command hears of it.
    expect((ours.hooks as Record<string, unknown>).StopFailure).toEqual((ours.hooks as Record<string, unknown>).Stop);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('adds --settings in front when the user gave none', () => {
    const args = withLaunchSettings(['--model', 'opus'], ours, '/tmp');
    expect(args[0]).toBe('--settings');
    expect(JSON.parse(args[1]!)).toEqual(ours);
    expect(args.slice(2)).toEqual(['--model', 'opus']);
  });

  it("merges into the user's own --settings, keeping their hooks and keys", () => {
    const theirs = { model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }], PreToolUse: [] } };
    const args = withLaunchSettings(['--settings', JSON.stringify(theirs), '-c'], ours, '/tmp');
    const merged = JSON.parse(args[1]!);
    expect(merged.model).toBe('x');
    expect(merged.hooks.PreToolUse).toEqual([]);
    expect(merged.hooks.Stop).toHaveLength(2);
    expect(merged.hooks.Stop[0].hooks[0].command).toBe('mine');
    expect(args.slice(2)).toEqual(['-c']);
  });
});
