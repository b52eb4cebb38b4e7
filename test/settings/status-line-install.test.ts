/** ccc's recording status line in a settings object: wraps the user's own line, installs once, uninstalls back to what was there. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installStatusLine, uninstallStatusLine } from '../../src/settings/status-line-install.js';
import { recordedAgentCost, sessionStatusLineFile } from '../../src/stop/status-line.js';

const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-lines-')), "it's lines");

function run(command: string, input: string): string {
  return execFileSync('sh', ['-c', command], { input, encoding: 'utf8' });
}

describe('the session recording status line', () => {
  it("records each session's input by its id and shows the user's line; uninstall gives the user's line back", () => {
    const theirs = { type: 'command', command: "cat > /dev/null; echo 'MINE'", padding: 2 };
    const { settings, action } = installStatusLine({ statusLine: theirs, model: 'x' }, dir);
    expect(action).toBe('added');
    const line = settings.statusLine as { command: string; padding: number };
    expect(line.padding).toBe(2);
    expect(run(line.command, JSON.stringify({ session_id: 'sess-1', cost: { total_cost_usd: 0.75 } }))).toBe('MINE\n');
    expect(recordedAgentCost(sessionStatusLineFile(dir, 'sess-1'))).toBe(0.75);
    // A spaced JSON is read too; an id that is not a plain name writes nothing.
    run(line.command, '{"session_id": "sess-2", "cost": {"total_cost_usd": 2}}');
    expect(recordedAgentCost(sessionStatusLineFile(dir, 'sess-2'))).toBe(2);
    run(line.command, JSON.stringify({ session_id: '../escape', cost: { total_cost_usd: 9 } }));
    expect(fs.readdirSync(dir).sort()).toEqual(['sess-1.json', 'sess-2.json']);
    expect(installStatusLine(settings, dir)).toEqual({ settings, action: 'unchanged' });
    expect(installStatusLine(settings, `${dir}-moved`).action).toBe('updated');
    expect(uninstallStatusLine(settings)).toEqual({ settings: { statusLine: theirs, model: 'x' }, removed: true });
  });

  it('without a line of the user: installs a recorder that prints nothing, and uninstall removes it', () => {
    const { settings } = installStatusLine({}, dir);
    expect(run((settings.statusLine as { command: string }).command, JSON.stringify({ session_id: 'sess-3' }))).toBe('');
    expect(uninstallStatusLine(settings)).toEqual({ settings: {}, removed: true });
    expect(uninstallStatusLine({ statusLine: { type: 'command', command: 'echo hi' } }).removed).toBe(false);
  });
});
