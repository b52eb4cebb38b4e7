import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CccError } from '../../src/errors.js';
import { assertNoEnvConflict, findEnvConflicts } from '../../src/providers/env-conflict.js';
import { settingsFilesWithEnv } from '../../src/settings/settings-files.js';

let root: string;
let files: string[];
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-env-conflict-')));
  fs.mkdirSync(path.join(root, 'home', '.claude'), { recursive: true });
  fs.mkdirSync(path.join(root, 'project', '.claude'), { recursive: true });
  files = settingsFilesWithEnv({ HOME: path.join(root, 'home') }, path.join(root, 'project'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const glmEnv = { ANTHROPIC_BASE_URL: 'https://glm.example/anthropic', ANTHROPIC_AUTH_TOKEN: 'glm-token' };

async function guardError(providerEnv: Record<string, string>): Promise<CccError | undefined> {
  return assertNoEnvConflict({ provider: 'glm', providerEnv, settingsFiles: files, configFile: '/h/.claude/ccc.json' }).then(
    () => undefined,
    (e: CccError) => e,
  );
}

describe('the env-conflict guard', () => {
  it('looks at the user, project and local settings files', () => {
    expect(files).toEqual([
      path.join(root, 'home', '.claude', 'settings.json'),
      path.join(root, 'project', '.claude', 'settings.json'),
      path.join(root, 'project', '.claude', 'settings.local.json'),
    ]);
    expect(settingsFilesWithEnv({ HOME: '/h', CLAUDE_CONFIG_DIR: '/elsewhere' }, '/p')[0]).toBe('/elsewhere/settings.json');
  });

  it('refuses when settings.json env sets a key the provider sets, saying which, where and how to resolve', async () => {
    fs.writeFileSync(files[0]!, JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', OTHER: '1' }, model: 'opus' }));
    const error = await guardError(glmEnv);
    expect(error?.code).toBe('SETTINGS_CONFLICT');
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe(
      [
        'Provider "glm" cannot be used as configured, because Claude Code would mix in settings of its own:',
        `- ANTHROPIC_BASE_URL in the "env" of ${files[0]} would override the provider's ANTHROPIC_BASE_URL (settings.json "env" wins over the environment ccc passes)`,
        `To resolve: remove ANTHROPIC_BASE_URL from the "env" of ${files[0]} (ccc sets the provider's variables for each launch),` +
          ' or, to keep what the settings file says, remove ANTHROPIC_BASE_URL from providers.glm.env in /h/.claude/ccc.json.',
      ].join('\n'),
    );
  });

  it('refuses a second credential that Claude Code would send to the provider too', async () => {
    fs.writeFileSync(files[2]!, JSON.stringify({ env: { ANTHROPIC_API_KEY: 'my-anthropic-key' } }));
    const error = await guardError(glmEnv);
    expect(error?.message).toContain(
      `- ANTHROPIC_API_KEY in the "env" of ${files[2]} would be sent to the provider's endpoint along with the provider's own credential`,
    );
    expect(error?.message).toContain('remove ANTHROPIC_AUTH_TOKEN from providers.glm.env');
  });

  it('lets the launch go when the values agree, or the keys are unrelated, or no file exists', async () => {
    expect(await guardError(glmEnv)).toBeUndefined();
    fs.writeFileSync(files[1]!, JSON.stringify({ env: { ANTHROPIC_BASE_URL: glmEnv.ANTHROPIC_BASE_URL, DISABLE_TELEMETRY: '1' } }));
    expect(await guardError(glmEnv)).toBeUndefined();
    expect(findEnvConflicts({ ANTHROPIC_BASE_URL: 'http://proxy' }, [{ file: 'f', env: { ANTHROPIC_API_KEY: 'k' } }])).toEqual([]);
  });

  it('refuses to guess with a corrupt settings file, naming it', async () => {
    fs.writeFileSync(files[0]!, '{"env": {');
    const error = await guardError(glmEnv);
    expect(error?.code).toBe('SETTINGS_CORRUPT');
    expect(error?.message).toContain(files[0]!);
  });
});
