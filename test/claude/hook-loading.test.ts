/**
 * When the real claude loads the hooks of a `--settings` JSON, and what the stream says about it:
 * the reviewer's guard (src/checkers/reviewer/guard-probe.ts) rests on these. A SessionStart hook
 * answers (`hook_response` under `--include-hook-events`) before the `system/init` frame; `--bare`,
 * `disableAllHooks` (user or managed settings) and managed `allowManagedHooksOnly` drop every hook
 * of `--settings`, PreToolUse included, silently: the tool call runs as the other settings allow.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { claudeBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { runProcess } from '../support/run-process.js';

describe('the real claude loading the hooks of --settings', () => {
  async function run(rig: Rig, extraArgs: string[], userSettings?: Record<string, unknown>) {
    const server = await rig.server((r) =>
      r.kind !== 'background' && r.index === 0 ? { toolUse: { name: 'Bash', input: { command: 'echo x > wrote.txt', description: 'w' } } } : { text: 'done' },
    );
    const world = rig.world({ server });
    const log = path.join(world.root, 'hooks.log');
    const hook = (name: string) => ({ hooks: [{ type: 'command', command: `echo ${name} >> '${log}'; echo probe-${name} >&2` }] });
    const settings = { hooks: { SessionStart: [hook('SessionStart')], PreToolUse: [{ matcher: '*', ...hook('PreToolUse') }] } };
    fs.mkdirSync(path.join(world.cwd, '.claude'));
    fs.writeFileSync(path.join(world.cwd, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
    if (userSettings) fs.writeFileSync(path.join(world.claudeDir, 'settings.json'), JSON.stringify(userSettings));
    const args = ['-p', '--verbose', '--output-format', 'stream-json', '--include-hook-events', '--settings', JSON.stringify(settings), ...extraArgs];
    const result = await runProcess(claudeBin, args, { cwd: world.cwd, env: world.env, input: 'go' });
    const frames = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const order = frames.map((f) => (f.type === 'system' ? `${f.subtype as string}${f.hook_event ? `:${f.hook_event as string}` : ''}` : (f.type as string)));
    return {
      code: result.code,
      order,
      hooksRun: fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [],
      wrote: fs.existsSync(path.join(world.cwd, 'wrote.txt')),
      sessionStartStderr: frames.find((f) => f.subtype === 'hook_response' && f.hook_event === 'SessionStart')?.stderr,
    };
  }

  it("with hooks loaded, the SessionStart hook's answer (its stderr) comes before the init frame, and PreToolUse runs", async ({ rig }) => {
    const r = await run(rig, []);
    expect(r.hooksRun).toEqual(['SessionStart', 'PreToolUse']);
    expect(r.sessionStartStderr).toContain('probe-SessionStart');
    expect(r.order.indexOf('hook_response:SessionStart')).toBeLessThan(r.order.indexOf('init'));
    expect(r.order.indexOf('init')).toBeLessThan(r.order.indexOf('assistant'));
  });

  const dropped: Array<[string, string[], Record<string, unknown> | undefined]> = [
    ['--bare', ['--bare'], undefined],
    ['managed disableAllHooks', ['--managed-settings', JSON.stringify({ disableAllHooks: true })], undefined],
    ['managed allowManagedHooksOnly', ['--managed-settings', JSON.stringify({ allowManagedHooksOnly: true })], undefined],
    ['user disableAllHooks', [], { disableAllHooks: true }],
  ];
  it.for(dropped)('%s: no hook of --settings runs, no hook frame is sent, and the tool call runs unguarded', async ([, extraArgs, userSettings], { rig }) => {
    const r = await run(rig, extraArgs, userSettings);
    expect(r.code).toBe(0);
    expect(r.hooksRun).toEqual([]);
    expect(r.order.filter((o) => o.startsWith('hook_'))).toEqual([]);
    expect(r.order).toContain('init');
    expect(r.wrote).toBe(true);
  });
});
