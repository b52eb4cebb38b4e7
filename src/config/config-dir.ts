/**
 * Where ccc's configuration and state live, from the environment alone. A leaf (no zod, no
 * config files): `ccc --help` registers `ccc sessions`, which needs it, and `--version` finds its
 * cache with it.
 */
import os from 'node:os';
import path from 'node:path';
import { CccError } from '../errors.js';

/** `$CCC_CONFIG_DIR` or `~/.claude`, absolute. */
export function resolveConfigDir(env: NodeJS.ProcessEnv, cwd: string): string {
  const explicit = env.CCC_CONFIG_DIR;
  if (explicit !== undefined && explicit !== '') return path.resolve(cwd, explicit.startsWith('~') ? expandHome(explicit, homeDir(env)) : explicit);
  return path.join(homeDir(env), '.claude');
}

/** The global config file, `<config dir>/ccc.json`. */
export function globalConfigFile(configDir: string): string {
  return path.join(configDir, 'ccc.json');
}

/**
 * HOME from the given environment (tests give each run its own), else the OS's idea of it. With
 * HOME set but empty Node's idea is "" too, and `~/.claude` would become `.claude` in whatever
 * directory ccc runs in, the project, while claude falls back to the account's home from the
 * user database (docs/claude-facts.md): the two would keep the session in different places.
 * Refused instead (exit 2), naming the home to set.
 */
export function homeDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : os.homedir();
  if (!path.isAbsolute(home)) {
    const account = accountHome();
    throw new CccError(
      'USAGE',
      `HOME is ${home === '' ? 'empty' : `not an absolute path ("${home}")`}; set HOME to your home directory` +
        `${account ? ` (\`export HOME=${account}\`)` : ''} and run ccc again: ccc and claude keep their files under ~/.claude, ` +
        `and without HOME claude would keep them in the account's home while ccc looked in the project.`,
    );
  }
  return home;
}

/** The home directory the user database names for this account, if any. */
function accountHome(): string | undefined {
  try {
    const home = os.userInfo().homedir;
    return path.isAbsolute(home) ? home : undefined;
  } catch {
    return undefined; // no entry for this uid (a container's arbitrary user)
  }
}

/** `~` and `~/x` become paths under `home`; `~user/x` and everything else stay as written. */
export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return p;
}
