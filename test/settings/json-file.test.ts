import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CccError } from '../../src/errors.js';
import { readJsonObjectFile, updateJsonObjectFile } from '../../src/settings/json-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-json-file-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const listDir = (d = dir) => fs.readdirSync(d).sort();
const fixedNow = (iso: string) => () => new Date(iso);

describe('reading a user JSON file', () => {
  it('reads a missing file as an empty object without creating it', async () => {
    const file = path.join(dir, 'settings.json');
    expect(await readJsonObjectFile(file)).toEqual({ path: file, exists: false, text: '', value: {} });
    expect(listDir()).toEqual([]);
  });

  it.each([
    ['{"env": {"A": 1},', /not valid JSON/],
    ['[1, 2]', /holds an array, not a JSON object/],
    ['"text"', /holds a string, not a JSON object/],
    ['null', /holds null/],
  ])('refuses %j with SETTINGS_CORRUPT naming the file and the problem', async (text, why) => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, text);
    const error = await readJsonObjectFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CccError);
    expect((error as CccError).code).toBe('SETTINGS_CORRUPT');
    expect((error as CccError).exitCode).toBe(2);
    expect((error as CccError).message).toContain(file);
    expect((error as CccError).message).toMatch(why);
    expect((error as CccError).message).toMatch(/did not change it/);
  });
});

describe('updating a user JSON file', () => {
  it('leaves a corrupt file byte-identical, with no backup and no temp file', async () => {
    const file = path.join(dir, 'settings.json');
    const corrupt = '{\n  "model": "opus",\n  "hooks": {\n';
    fs.writeFileSync(file, corrupt);
    await expect(updateJsonObjectFile(file, (v) => ({ ...v, x: 1 }))).rejects.toMatchObject({ code: 'SETTINGS_CORRUPT' });
    expect(fs.readFileSync(file, 'utf8')).toBe(corrupt);
    expect(listDir()).toEqual(['settings.json']);
  });

  it('merges, keeps unknown keys, backs up the previous bytes and keeps the mode', async () => {
    const file = path.join(dir, 'settings.json');
    const original = '{\n    "model": "opus",\n    "someFutureKey": {"deep": [1, {"x": null}]}\n}\n';
    fs.writeFileSync(file, original);
    fs.chmodSync(file, 0o640);
    const change = await updateJsonObjectFile(file, (v) => ({ ...v, added: true }), { now: fixedNow('2026-11-22T01:02:03.456Z') });
    expect(change.changed).toBe(true);
    expect(change.backupPath).toBe(`${file}.bak-2026-11-22T01-02-03-456Z`);
    expect(fs.readFileSync(change.backupPath!, 'utf8')).toBe(original);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ model: 'opus', someFutureKey: { deep: [1, { x: null }] }, added: true });
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^\{\n {4}"model"/); // the user's 4-space indent is kept
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(listDir()).toEqual(['settings.json', 'settings.json.bak-2026-11-22T01-02-03-456Z']);
  });

  it('creates a missing file (and its directory) privately, with no backup', async () => {
    const file = path.join(dir, 'new', '.claude', 'settings.json');
    const change = await updateJsonObjectFile(file, () => ({ a: 1 }));
    expect(change.backupPath).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('{\n  "a": 1\n}\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes nothing and makes no backup when the change is a no-op', async () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{"a":1}');
    const change = await updateJsonObjectFile(file, (v) => ({ ...v, a: 1 }));
    expect(change.changed).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(listDir()).toEqual(['settings.json']);
  });

  it('writes nothing on a dry run but reports the text it would write', async () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{"a":1}');
    const change = await updateJsonObjectFile(file, (v) => ({ ...v, b: 2 }), { dryRun: true });
    expect(change.changed).toBe(true);
    expect(change.afterText).toBe('{\n  "a": 1,\n  "b": 2\n}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(listDir()).toEqual(['settings.json']);
  });

  it('writes through a symlink to its target, so a dotfiles link stays a link', async () => {
    fs.mkdirSync(path.join(dir, 'dotfiles'));
    fs.mkdirSync(path.join(dir, '.claude'));
    const target = path.join(dir, 'dotfiles', 'settings.json');
    const link = path.join(dir, '.claude', 'settings.json');
    fs.writeFileSync(target, '{"mine": 1}');
    fs.symlinkSync('../dotfiles/settings.json', link);
    const change = await updateJsonObjectFile(link, (v) => ({ ...v, ours: 2 }));
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(target, 'utf8'))).toEqual({ mine: 1, ours: 2 });
    expect(path.dirname(change.backupPath!)).toBe(path.join(dir, 'dotfiles'));
  });

  it('loses no change when several updates race on the same file', async () => {
    const file = path.join(dir, 'ccc.json');
    fs.writeFileSync(file, '{"keep": true}');
    await Promise.all(Array.from({ length: 8 }, (_, i) => updateJsonObjectFile(file, (v) => ({ ...v, [`k${i}`]: i }))));
    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(value).toEqual({ keep: true, k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7 });
    expect(listDir().filter((n) => n.includes('.tmp') || n.endsWith('.lock'))).toEqual([]);
  });

  it('keeps only the newest backups when asked to', async () => {
    const file = path.join(dir, 'ccc.json');
    fs.writeFileSync(file, '{}');
    for (let i = 0; i < 5; i++) {
      await updateJsonObjectFile(file, (v) => ({ ...v, n: i }), { now: fixedNow(`2026-01-0${i + 1}T00:00:00.000Z`), keepBackups: 2 });
    }
    expect(listDir()).toEqual(['ccc.json', 'ccc.json.bak-2026-01-04T00-00-00-000Z', 'ccc.json.bak-2026-01-05T00-00-00-000Z']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'ccc.json.bak-2026-01-05T00-00-00-000Z'), 'utf8'))).toEqual({ n: 3 });
  });

  it('never overwrites an older backup taken in the same millisecond', async () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{"v": 0}');
    const now = fixedNow('2026-11-22T00:00:00.000Z');
    const first = await updateJsonObjectFile(file, () => ({ v: 1 }), { now });
    const second = await updateJsonObjectFile(file, () => ({ v: 2 }), { now });
    expect(second.backupPath).not.toBe(first.backupPath);
    expect(JSON.parse(fs.readFileSync(first.backupPath!, 'utf8'))).toEqual({ v: 0 });
    expect(JSON.parse(fs.readFileSync(second.backupPath!, 'utf8'))).toEqual({ v: 1 });
  });
});
