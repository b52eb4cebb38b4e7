#!/usr/bin/env node
// The claude versions the contract tests run on besides the pinned devDependency
// (test/support/contract-tests.json: the oldest ccc supports, and the contract test files).
//
//   node scripts/claude-versions.mjs install <version>...   installs each into the cache
//   node scripts/claude-versions.mjs contract               the contract tests on the oldest
//                                                           supported and the newest published claude
//
// The cache is $CCC_CLAUDE_VERSIONS_DIR or ~/.cache/ccc-test/claude/<version> (test/support/claude-env.ts
// reads the same place for CCC_TEST_CLAUDE=<version>). The newest published is asked of the registry
// each run, so CI notices a claude that changed under ccc; it is skipped when it is the pinned one,
// which the whole suite has just run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = '@anthropic-ai/claude-code';
const contract = JSON.parse(fs.readFileSync(path.join(root, 'test', 'support', 'contract-tests.json'), 'utf8'));
const cache = process.env.CCC_CLAUDE_VERSIONS_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ccc-test', 'claude');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installedVersion(prefix) {
  const manifest = path.join(prefix, 'node_modules', ...PACKAGE.split('/'), 'package.json');
  return fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')).version : undefined;
}

function install(version) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a claude version: ${JSON.stringify(version)} (x.y.z)`);
  const prefix = path.join(cache, version);
  if (installedVersion(prefix) === version) return;
  fs.mkdirSync(prefix, { recursive: true });
  fs.writeFileSync(path.join(prefix, 'package.json'), '{"private":true}\n');
  console.log(`claude-versions: installing ${PACKAGE}@${version} into ${prefix}`);
  const code = run(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `${PACKAGE}@${version}`]);
  if (code !== 0 || installedVersion(prefix) !== version) throw new Error(`could not install ${PACKAGE}@${version} (npm exit ${code})`);
}

function newestPublished() {
  const result = spawnSync(npm, ['view', PACKAGE, 'version'], { cwd: root, encoding: 'utf8' });
  const version = result.stdout?.trim();
  if (result.status !== 0 || !/^\d+\.\d+\.\d+$/.test(version ?? '')) throw new Error(`npm view ${PACKAGE} version failed: ${result.stderr?.trim()}`);
  return version;
}

function contractRun() {
  const pinned = installedVersion(root);
  const versions = [...new Set([contract.oldest, newestPublished()])].filter((v) => v !== pinned);
  let failed = 0;
  for (const version of versions) {
    install(version);
    console.log(`claude-versions: the contract tests on claude ${version} (pinned: ${pinned})`);
    const code = run(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...contract.files], {
      env: { ...process.env, CCC_TEST_CLAUDE: version, CCC_CLAUDE_VERSIONS_DIR: cache },
    });
    if (code !== 0) failed++;
  }
  return failed === 0 ? 0 : 1;
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'install' && rest.length > 0) rest.forEach(install);
else if (command === 'contract') process.exitCode = contractRun();
else {
  console.error('usage: node scripts/claude-versions.mjs install <version>... | contract');
  process.exitCode = 2;
}
