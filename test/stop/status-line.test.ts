/** ccc's status line command keeps claude's input for the supervisor and shows the user's own line. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedAgentCost, recordingStatusLine } from '../../src/stop/status-line.js';

const INPUT = JSON.stringify({ session_id: 's', cost: { total_cost_usd: 1.25 } });

function run(command: string): string {
  return execFileSync('sh', ['-c', command], { input: INPUT, encoding: 'utf8' });
}

describe('the recording status line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-status-'));
  const file = path.join(dir, "it's status.json");

  it("records the input and pipes it to the user's command, whose output is the line", () => {
    const line = recordingStatusLine(file, { type: 'command', command: `sed 's/.*total_cost_usd":\\([0-9.]*\\).*/MINE \\1/'`, padding: 1 });
    expect(line).toMatchObject({ type: 'command', padding: 1 });
    expect(run(line.command as string)).toBe('MINE 1.25');
    expect(recordedAgentCost(file)).toBe(1.25);
  });

  it('without a user line it records and prints nothing; a missing or malformed file counts 0', () => {
    fs.rmSync(file, { force: true });
    expect(recordedAgentCost(file)).toBe(0);
    expect(run(recordingStatusLine(file, undefined).command as string)).toBe('');
    expect(recordedAgentCost(file)).toBe(1.25);
    fs.writeFileSync(file, '{"cost":');
    expect(recordedAgentCost(file)).toBe(0);
  });
});
