/**
 * A real `@anthropic-ai/claude-code` of a given version from the npm registry, for the tests of
 * what ccc does with a claude it does not support. Installed once into
 * `~/.cache/ccc-test/claude/<version>` (CCC_CLAUDE_VERSIONS_DIR overrides the cache), with the
 * registry's own client; a later run finds it there and needs no network.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from './run-process.js';

function versionsDir(): string {
  return process.env.CCC_CLAUDE_VERSIONS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ccc-test', 'claude');
}

/** The `claude` executable of `version`, installing it first when the cache lacks it. */
export async function registryClaude(version: string): Promise<string> {
  const prefix = path.join(versionsDir(), version);
  const bin = path.join(prefix, 'node_modules', '.bin', 'claude');
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(versionsDir(), { recursive: true });
  // Installed beside the cache entry, then renamed into place: two test files asking at once never see half an install.
  const staging = fs.mkdtempSync(path.join(versionsDir(), `.${version}-`));
  const npm = await runProcess(
    'npm',
    ['install', '--prefix', staging, '--no-audit', '--no-fund', '--prefer-offline', '--omit=optional', '--no-save', `@anthropic-ai/claude-code@${version}`],
    { cwd: staging, env: process.env, timeoutMs: 300_000 },
  );
  if (npm.code !== 0) throw new Error(`npm install @anthropic-ai/claude-code@${version} failed (${npm.code}): ${npm.stderr}`);
  try {
    fs.renameSync(staging, prefix);
  } catch (error) {
    // Another test installed it first: use that one.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(bin)) throw error;
  }
  return bin;
}
