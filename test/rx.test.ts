/**
 * src/rx.ts imports RxJS's classes from `rxjs/internal/*` (RxJS 7 has no public entry per class;
 * its one public entry loads every operator, ~85 ms of every ccc start). Pinned here: the classes
 * are the very ones `rxjs` exports (so streams made with either mix), and loading them leaves the
 * operator index unloaded. An RxJS upgrade that moves them fails this test, not a user's session.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/claude-env.js';

describe('src/rx.ts', () => {
  it("gives RxJS's public classes without loading RxJS's index", () => {
    const rx = pathToFileURL(path.join(repoRoot, 'dist', 'rx.js')).href;
    const script = `
      import(${JSON.stringify(rx)}).then((rx) => {
        const loaded = Object.keys(require.cache).filter((file) => file.includes('rxjs'));
        const index = loaded.some((file) => file.endsWith(require('path').join('cjs', 'index.js')));
        const pub = require('rxjs');
        const same = ['Observable', 'ReplaySubject', 'Subject'].every((name) => rx[name] === pub[name]);
        console.log(JSON.stringify({ index, files: loaded.length, same, names: Object.keys(rx).sort() }));
      });`;
    const report = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' })) as Record<string, unknown>;
    expect(report).toMatchObject({ index: false, same: true, names: ['Observable', 'ReplaySubject', 'Subject'] });
    expect(report.files).toBeLessThan(40);
  });
});
