/** File locations under <config dir>/ccc: private directory, and session ids that cannot escape it. */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cccDir, checkSessionId, inputLogPath, isValidSessionId, runningSessionPath, sessionLogPath, sessionStatePath } from '../../src/state/paths.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

describe('state paths', () => {
  it('puts every file under <config dir>/ccc, created with mode 0700', () => {
    const sid = '3f2a9c1e-7b4d-4e8a-9c0f-1a2b3c4d5e6f';
    const dir = path.join(t.claudeDir, 'ccc');
    expect(sessionLogPath(t.claudeDir, sid)).toBe(path.join(dir, `supervisor-${sid}.log`));
    expect(sessionStatePath(t.claudeDir, sid)).toBe(path.join(dir, `supervisor-${sid}.json`));
    expect(inputLogPath(t.claudeDir, sid)).toBe(path.join(dir, `input-${sid}.log`));
    expect(runningSessionPath(t.claudeDir, 4242)).toBe(path.join(dir, 'sessions', '4242.json'));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'sessions')).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing directory that was left readable by others', () => {
    const dir = path.join(t.claudeDir, 'ccc');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    cccDir(t.claudeDir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('rejects session ids that are not [A-Za-z0-9_-]{1,128}', () => {
    for (const bad of ['../etc/passwd', '..', '.', 'a/b', 'a\\b', '', ' ', 'x'.repeat(129), 'ä', 'a.b', 'a\nb']) {
      expect(() => sessionStatePath(t.claudeDir, bad), JSON.stringify(bad)).toThrow(/Invalid session id/);
    }
    expect(() => checkSessionId(undefined)).toThrow(expect.objectContaining({ code: 'USAGE', exitCode: 2 }));
    expect(() => runningSessionPath(t.claudeDir, -1)).toThrow();
  });

  it('fuzz: an accepted id always yields a file directly inside the ccc directory', () => {
    const dir = path.join(t.claudeDir, 'ccc');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), fc.constantFrom('..', '../x', '/abs')), (sid) => {
        if (!isValidSessionId(sid)) {
          expect(() => sessionLogPath(t.claudeDir, sid)).toThrow(/Invalid session id/);
          return;
        }
        for (const file of [sessionLogPath(t.claudeDir, sid), sessionStatePath(t.claudeDir, sid), inputLogPath(t.claudeDir, sid)]) {
          expect(path.dirname(file)).toBe(dir);
          expect(path.basename(file)).toContain(sid);
        }
      }),
      { numRuns: 500 },
    );
  });
});
