/**
 * Twins stay one: a thing that is the same wherever it is made is made in one place, so that a
 * change to it (a message, a field) cannot reach one mode and miss another. The error a second
 * supervisor of a session stops with, the error for a plugin that cannot be used, and the stop ccc
 * makes for a turn that had no Stop hook each have one builder, and a session is claimed by the
 * run alone; the rest of src/ calls them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');

function sources(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('.ts')) files.set(path.join(dir, entry), fs.readFileSync(path.join(root, dir, entry), 'utf8'));
  }
  return files;
}

/** The files of `files` where `pattern` matches, with how often. */
function whereMade(files: Map<string, string>, pattern: RegExp): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [file, text] of files) {
    const count = [...text.matchAll(new RegExp(pattern.source, 'g'))].length;
    if (count > 0) found[file] = count;
  }
  return found;
}

describe('each twin is made once', () => {
  const src = sources('src');

  it('the error a second supervisor of a session stops with: sessionSupervisedError, whichever mode meets it', () => {
    expect(whereMade(src, /new CccError\(\s*'SESSION_SUPERVISED'/)).toEqual({ 'src/state/session-claims.ts': 1 });
  });

  it("a session's claim, whichever mode takes it: the run's (Run.claim), the only holder of the claims", () => {
    expect(whereMade(src, /new SessionClaims\(/)).toEqual({ 'src/loop/run.ts': 1 });
    expect(whereMade(src, /\bclaimSession\(/)).toEqual({ 'src/state/session-claims.ts': 2 });
  });

  it('the error for a checker plugin that cannot be used, loaded in ccc or in its thread: pluginInvalid', () => {
    expect(whereMade(src, /Checker plugin "\$\{specifier\}"/)).toEqual({ 'src/checkers/plugin-loader.ts': 1 });
  });

  it("the stop ccc makes for a turn without a Stop hook (headless, kanban, the loop's scripted driver): turnStop", () => {
    const made = whereMade(
      new Map([...src, ['test/loop/scripted-driver.ts', fs.readFileSync(path.join(root, 'test/loop/scripted-driver.ts'), 'utf8')]]),
      /backgroundTasks:/,
    );
    // The type's field, the hook input's parser and turnStop: the only two makers of a StopEvent.
    expect(made).toEqual({ 'src/stop/stop-event.ts': 3 });
  });
});
