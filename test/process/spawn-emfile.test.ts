/**
 * A spawn that finds no file descriptor left (EMFILE) is an orderly result, never an unhandled
 * 'error' event: Node reports it on the next tick with no pipes at all, and ccc once ended there
 * (`spawn ccc-lifeline EMFILE`, exit 1). A real process under a low limit (prlimit) uses up its
 * descriptors and then starts a child through the built child-process edge.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';

const script = `
import fs from 'node:fs';
const { runChild } = await import(${JSON.stringify(path.join(repoRoot, 'dist/process/child-process.js'))});
const held = [];
try { for (;;) held.push(fs.openSync('/dev/null', 'r')); } catch {}
fs.closeSync(held.pop()); // one left: not enough for a child's pipes
const result = await runChild({ command: 'true', args: [] });
for (const fd of held) fs.closeSync(fd);
console.log(JSON.stringify({ exitCode: result.exitCode, code: result.spawnError?.code, message: result.spawnError?.message }));
`;

describe('a spawn without descriptors', () => {
  it('is a spawnError naming the limit, and the process goes on', async () => {
    const r = await runProcess('prlimit', ['--nofile=64:64', process.execPath, '--input-type=module', '-e', script]);
    expect(r.stderr).not.toMatch(/Unhandled 'error'/);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { exitCode: number | null; code?: string; message?: string };
    expect(result).toMatchObject({ exitCode: null, code: 'EMFILE' });
    expect(result.message).toMatch(/^Cannot start true: ccc has no file descriptors left \(ulimit -n is 64\); raise the open-file limit$/);
  });
});
