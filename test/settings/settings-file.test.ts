/** The user's `--settings`, read in one place: every launch that merges into it says the same for the same mistake. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withSettingsArg } from '../../src/providers/settings-arg.js';
import { userSettingsArg } from '../../src/settings/settings-file.js';
import { withLaunchSettings } from '../../src/stop/launch-settings.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-settings-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, 'broken.json'), '{"model": ');
fs.writeFileSync(path.join(dir, 'list.json'), '[1]');
fs.writeFileSync(path.join(dir, 'good.json'), '{"model": "mine"}');

/** Each launch that takes the user's --settings: a provider's, a supervised session's (and the reviewer's). */
const LAUNCHES: Record<string, (args: string[]) => unknown> = {
  "a provider's launch": (args) => withSettingsArg(args, { env: { X: '1' } }, dir),
  'a supervised launch': (args) => withLaunchSettings(args, { hooks: {} }, dir),
};

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe("the user's --settings", () => {
  it.each([
    ['no value', ['--settings']],
    ['inline JSON that does not parse', ['--settings', '{nope']],
    ['inline JSON that is no object', ['--settings=[1,2]']],
    ['a file that does not parse', ['--settings', 'broken.json']],
    ['a file that holds no object', ['--settings', 'list.json']],
    ['a file that is not there', ['--settings', 'missing.json']],
    ['a directory', ['--settings', '.']],
  ])('%s: one message, whichever launch reads it', (_mistake, args) => {
    const messages = Object.values(LAUNCHES).map((launch) => messageOf(() => launch(args)));
    expect(messages[0]).toMatch(/^--settings .*Give a JSON object or the path of a JSON file\.$/);
    expect(new Set(messages).size).toBe(1);
  });

  it('is found in either form, with where it is and how many words it takes', () => {
    expect(userSettingsArg(['-p', 'x'], dir)).toBeUndefined();
    expect(userSettingsArg(['-c', '--settings', 'good.json', '-p'], dir)).toEqual({ at: 1, words: 2, value: { model: 'mine' } });
    expect(userSettingsArg(['--settings={"a":1}'], dir)).toEqual({ at: 0, words: 1, value: { a: 1 } });
  });
});
