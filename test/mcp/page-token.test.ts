/** The feedback page's token file, on real files: private, created once, kept, replaced when wrong. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPageToken, PAGE_TOKEN_FILE } from '../../src/mcp/http/page-token.js';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function setup() {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-token-')));
  const configDir = path.join(root, 'config');
  const file = path.join(configDir, 'ccc', PAGE_TOKEN_FILE);
  const warnings: string[] = [];
  return { configDir, file, warnings, load: () => loadPageToken(configDir, (w) => warnings.push(w)) };
}

const TOKEN = /^[A-Za-z0-9_-]{24}$/;
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the feedback page token', () => {
  it('is created once, mode 0600, in the private ccc directory, and the same at every later start', async () => {
    const t = setup();
    const token = await t.load();
    expect(token).toMatch(TOKEN);
    expect(fs.readFileSync(t.file, 'utf8')).toBe(`${token}\n`);
    expect(modeOf(t.file)).toBe(0o600);
    expect(modeOf(path.dirname(t.file))).toBe(0o700);
    expect(await t.load()).toBe(token);
    expect(t.warnings).toEqual([]);
    expect(fs.readdirSync(path.dirname(t.file))).toEqual([PAGE_TOKEN_FILE]);
  });

  it('is one token for servers that start at the same moment', async () => {
    const t = setup();
    const tokens = await Promise.all(Array.from({ length: 8 }, () => t.load()));
    expect(new Set(tokens).size).toBe(1);
    expect(fs.readFileSync(t.file, 'utf8')).toBe(`${tokens[0]}\n`);
    expect(t.warnings).toEqual([]);
    expect(fs.readdirSync(path.dirname(t.file))).toEqual([PAGE_TOKEN_FILE]);
  });

  it('replaces, with a warning, a file that others could read', async () => {
    const t = setup();
    const old = await t.load();
    fs.chmodSync(t.file, 0o644);
    const token = await t.load();
    expect(token).not.toBe(old);
    expect(token).toMatch(TOKEN);
    expect(modeOf(t.file)).toBe(0o600);
    expect(fs.readFileSync(t.file, 'utf8')).toBe(`${token}\n`);
    expect(t.warnings).toEqual([
      `the feedback page's token file ${t.file} could be read by others (mode 0644); it now holds a new token (an address saved with the old one no longer opens the page)`,
    ]);
  });

  it('replaces, with a warning, a file that holds no token, and a symlink (leaving its target alone)', async () => {
    const t = setup();
    await t.load();
    fs.writeFileSync(t.file, 'hello\n', { mode: 0o600 });
    const fromGarbage = await t.load();
    expect(fromGarbage).toMatch(TOKEN);
    expect(t.warnings.at(-1)).toContain(`${t.file} does not hold a token; it now holds a new token`);

    const elsewhere = path.join(root, 'elsewhere');
    fs.writeFileSync(elsewhere, `${'x'.repeat(24)}\n`, { mode: 0o600 });
    fs.rmSync(t.file);
    fs.symlinkSync(elsewhere, t.file);
    const fromLink = await t.load();
    expect(fromLink).not.toBe('x'.repeat(24));
    expect(fs.lstatSync(t.file).isFile()).toBe(true);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe(`${'x'.repeat(24)}\n`);
    expect(t.warnings.at(-1)).toContain(`${t.file} is a symbolic link; it now holds a new token`);
    expect(t.warnings).toHaveLength(2);
  });

  it('is a token of its own run, with a warning, when the config directory cannot hold the file', async () => {
    const t = setup();
    fs.writeFileSync(t.configDir, 'a file where the config directory should be');
    const first = await t.load();
    const second = await t.load();
    expect(first).toMatch(TOKEN);
    expect(second).not.toBe(first);
    expect(t.warnings[0]).toMatch(
      /^cannot keep the feedback page's token in .*mcp-page-token \(.*\); this run uses a token of its own, so the page's address changes at every start$/,
    );
  });
});
