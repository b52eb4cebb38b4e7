/**
 * A private world for one test that runs the real `claude`: its own HOME (so nothing of the
 * developer's leaks in or out), a project directory, and the environment that points claude at
 * the scripted model server (docs/design/claude-facts.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The claude under test: the pinned devDependency, or with `CCC_TEST_CLAUDE=<version>` that version
 * from the cache `scripts/claude-versions.mjs` fills (`.ci/run` runs the contract tests on the
 * oldest supported and the newest published claude this way).
 */
export const testClaude = resolveTestClaude(process.env);
export const claudeBin = testClaude.bin;
export const cccBin = path.join(repoRoot, 'dist', 'cli', 'main.js');
/** The installed `ccc` (package.json "bin"): in a terminal, the front that runs `cccBin` behind it. */
export const cccInstalledBin = path.join(repoRoot, 'dist', 'cli', 'bin.cjs');

export const TEST_API_KEY = 'sk-ant-test-0123456789abcdefghijklmnop';

export interface ClaudeWorld {
  root: string;
  home: string;
  cwd: string;
  /** `$HOME/.claude`, the default config dir of ccc too. */
  claudeDir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

const SUITE_COMPILE_CACHE = path.join(os.tmpdir(), `ccc-test-compile-cache-${os.userInfo().uid}`);

export function makeClaudeWorld(options: { modelUrl?: string; env?: NodeJS.ProcessEnv } = {}): ClaudeWorld {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-test-')));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'project');
  const claudeDir = path.join(home, '.claude');
  fs.mkdirSync(claudeDir, { recursive: true });
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(
    path.join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
      customApiKeyResponses: { approved: [TEST_API_KEY.slice(-20)], rejected: [] },
    }),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_API_KEY: TEST_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    CCC_CLAUDE: claudeBin,
    // One compile cache for the suite's ccc starts (src/process/compile-cache.cts): a fresh HOME per
    // world would write it again at every start; test/process/compile-cache.test.ts covers the cold one.
    CCC_COMPILE_CACHE: SUITE_COMPILE_CACHE,
    ...(options.modelUrl ? { ANTHROPIC_BASE_URL: options.modelUrl } : {}),
    ...options.env,
  };
  return {
    root,
    home,
    cwd,
    claudeDir,
    env,
    // A ccc or claude a test left behind (killed, but its children still tearing down) would write
    // into the world while it is removed (ENOTEMPTY on a loaded machine): whatever runs in it goes first.
    cleanup: () => {
      killProcessesUnder(root);
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

function resolveTestClaude(env: NodeJS.ProcessEnv): { bin: string; version: string } {
  const wanted = env.CCC_TEST_CLAUDE?.trim();
  const prefix = wanted ? claudeVersionDir(wanted, env) : repoRoot;
  const manifest = path.join(prefix, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json');
  if (!fs.existsSync(manifest))
    throw new Error(`CCC_TEST_CLAUDE=${wanted}: no claude at ${prefix}; install it with \`node scripts/claude-versions.mjs install ${wanted}\``);
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  return { bin: path.join(prefix, 'node_modules', '.bin', 'claude'), version };
}

/** Where `scripts/claude-versions.mjs` installs a claude version (kept in step with that script). */
function claudeVersionDir(version: string, env: NodeJS.ProcessEnv): string {
  const cache = env.CCC_CLAUDE_VERSIONS_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ccc-test', 'claude');
  return path.join(cache, version);
}

/** SIGKILLs every process whose working directory is inside `root` (a test's world; never the test runner's). */
function killProcessesUnder(root: string): void {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`).startsWith(root + path.sep)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone, or not ours to see
    }
  }
}
