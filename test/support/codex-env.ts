/**
 * What a test needs to run the real `codex` (a devDependency) against the scripted Responses API
 * server (responses-server.ts): its own CODEX_HOME (nothing of the developer's codex login or
 * config leaks in), a key in the variable the provider reads, and ccc's codex settings pointing
 * at the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './claude-env.js';
import type { CodexSettings } from '../../src/checkers/codex/codex-launch.js';
import { probeSandbox } from '../../src/checkers/codex/codex-sandbox.js';

export const codexBin = path.join(repoRoot, 'node_modules', '.bin', 'codex');
export const TEST_OPENAI_KEY = 'sk-test-codex-0123456789';

/** The variables that point ccc's codex reviewer at `serverUrl`, with a CODEX_HOME under `home`. */
export function codexEnv(home: string, serverUrl: string): NodeJS.ProcessEnv {
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  return { CODEX_HOME: codexHome, OPENAI_API_KEY: TEST_OPENAI_KEY, CCC_CODEX: codexBin, CCC_CODEX_BASE_URL: serverUrl };
}

export function codexSettings(serverUrl: string, overrides: Partial<CodexSettings> = {}): CodexSettings {
  return { command: codexBin, base_url: serverUrl, api_key_env: 'OPENAI_API_KEY', workspace: 'project', unsandboxed: false, ...overrides };
}

/** A git project of node's test runner: `add` is right or wrong as asked. */
export function writeNodeProject(cwd: string, options: { addWorks: boolean }): void {
  fs.mkdirSync(path.join(cwd, 'test'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node --test' } }));
  fs.writeFileSync(
    path.join(cwd, 'test', 'add.test.js'),
    "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n",
  );
  fs.writeFileSync(path.join(cwd, 'add.js'), options.addWorks ? 'exports.add = (a, b) => a + b;\n' : 'exports.add = (a, b) => a - b;\n');
}

/**
 * For a file's `beforeAll`: codex's kernel sandbox starts here, or the file fails saying what to
 * change. Nothing is installed for it: the sandbox is bubblewrap shipped inside the codex package
 * (with seccomp), and what it needs of the machine is a kernel that lets an unprivileged user
 * create a user namespace, a setting, not a package. Never a skip: a suite that passes without the
 * sandbox would pass without testing that a review cannot write.
 */
export async function needsCodexSandbox(): Promise<void> {
  const codexHome = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-codex-home-'));
  const state = await probeSandbox({ command: codexBin, env: { PATH: process.env.PATH, HOME: codexHome, CODEX_HOME: codexHome } }).finally(() =>
    fs.rmSync(codexHome, { recursive: true, force: true }),
  );
  if (state.works) return;
  throw new Error(
    `codex's kernel sandbox does not start on this machine (${state.why}). The codex tests need unprivileged user namespaces ` +
      '(bubblewrap ships inside @openai/codex; there is nothing to install): `sudo sysctl -w kernel.unprivileged_userns_clone=1` ' +
      '(Debian), `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (Ubuntu 23.10 and later), or a container started ' +
      'with user namespaces allowed (Docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined)',
  );
}
