import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSettingsArg } from '../../src/providers/settings-arg.js';

describe('the per-launch --settings argument', () => {
  it('is added in front when there are settings, and left out when there are none', () => {
    expect(withSettingsArg(['-p', 'hi'], { model: 'x' }, '/')).toEqual(['--settings', '{"model":"x"}', '-p', 'hi']);
    expect(withSettingsArg(['-p', 'hi'], {}, '/')).toEqual(['-p', 'hi']);
  });

  it("merges with the user's own --settings (theirs wins), given inline or as a file", () => {
    expect(withSettingsArg(['--settings={"model":"mine"}', '-p', 'x'], { model: 'x', theme: 'dark' }, '/')).toEqual([
      '--settings',
      '{"model":"mine","theme":"dark"}',
      '-p',
      'x',
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-settings-arg-'));
    try {
      fs.writeFileSync(path.join(dir, 's.json'), '{"permissions": {"allow": ["Bash"]}}');
      expect(withSettingsArg(['--settings', 's.json'], { permissions: { deny: ['Read'] } }, dir)).toEqual([
        '--settings',
        '{"permissions":{"deny":["Read"],"allow":["Bash"]}}',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a --settings value that is not a JSON object', () => {
    expect(() => withSettingsArg(['--settings', '{nope'], { a: 1 }, '/')).toThrow(/--settings \{nope: not a JSON object/);
    expect(() => withSettingsArg(['--settings'], { a: 1 }, '/')).toThrow(/--settings needs a value/);
  });
});
