/**
 * The store's crash-safety, with real processes: two writers append to one store at once (as the
 * Keeper and the Worker do) and each is killed with SIGKILL in the middle of its writes. The
 * store opens again with every record either process had finished, whole, and nothing else broken.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMcpStore, readMcpStore } from '../../src/mcp/storage/mcp-store.js';
import { repoRoot } from '../support/claude-env.js';

const writer = path.join(repoRoot, 'test', 'fixtures', 'store-writer.mjs');

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts a writer that appends until killed; `acknowledged` holds the names whose record call returned. */
function startWriter(configDir: string, name: string) {
  const child = spawn(process.execPath, [writer, configDir, '-1', name], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acknowledged: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    acknowledged.push(...lines);
  });
  // 'close', not 'exit': it comes after stdout's last acknowledgement.
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  return { child, acknowledged, exited };
}

describe('mcp store under kill -9', () => {
  it('two writers killed mid-write, five times over: every finished record is there, whole, and the store checks ok', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-store-crash-'));
    const acknowledged = new Set<string>();
    for (let round = 1; round <= 5; round++) {
      const writers = [startWriter(dir, `a${round}`), startWriter(dir, `b${round}`)];
      // Kill each at its own moment once it has written a few hundred records.
      for (const [index, w] of writers.entries()) {
        await vi.waitFor(() => expect(w.acknowledged.length).toBeGreaterThan(100 + 97 * index + 31 * round), { timeout: 30_000, interval: 5 });
        w.child.kill('SIGKILL');
      }
      for (const w of writers) {
        expect(await w.exited).toBe('SIGKILL');
        for (const name of w.acknowledged) acknowledged.add(name);
      }
    }
    const store = openMcpStore(dir);
    expect(store.check()).toEqual({ ok: true });
    store.close();
    const contents = readMcpStore(dir);
    expect(contents.badLines).toEqual([]);
    const stored = contents.restarts.map((r) => r.runId);
    expect([...acknowledged].filter((name) => !stored.includes(name))).toEqual([]);
    // Each writer's records are in its own order, without a gap: at most the one in flight at the kill is beyond what it acknowledged.
    for (const prefix of new Set(stored.map((name) => name.split('-')[0]))) {
      const numbers = stored.filter((name) => name.startsWith(`${prefix}-`)).map((name) => Number(name.split('-')[1]));
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    }
    expect(stored.length - acknowledged.size).toBeLessThanOrEqual(10);
  }, 120_000);
});
