/**
 * Node's compile cache for ccc's own modules. Every ccc start compiles the same hundred-odd
 * modules again (the interactive path about 120 before claude's spawn, the Stop hook's bundle at
 * every stop); with V8's code cache on disk a start skips that work: about 13 ms of the 120 ms to
 * claude's spawn on 2 cores, measured with bench/startup.mjs. The first start after an install or
 * an upgrade writes the cache (a few ms more, once).
 *
 * The cache lives in the user's own cache directory, never in a shared temporary directory where
 * another user could leave entries for ccc to load. Silence on failure is right: a cache that
 * cannot be created (read-only home, full disk) costs only the time it would have saved, and Node
 * rejects an entry whose size or hash does not match, so a torn or foreign file is not used.
 * `CCC_COMPILE_CACHE=off` (or Node's own `NODE_DISABLE_COMPILE_CACHE=1`) turns it off; a path
 * puts it there.
 */
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** Where the cache goes: `CCC_COMPILE_CACHE`, else `$XDG_CACHE_HOME/ccc/compile-cache`, else `~/.cache/ccc/compile-cache`; undefined when off or no absolute place is known. */
export function compileCacheDir(env: NodeJS.ProcessEnv, home: () => string = os.homedir): string | undefined {
  const chosen = env.CCC_COMPILE_CACHE?.trim();
  if (chosen === 'off') return undefined;
  if (chosen) return path.isAbsolute(chosen) ? chosen : undefined;
  const xdg = env.XDG_CACHE_HOME?.trim();
  // The XDG base directory spec: a relative XDG_CACHE_HOME is invalid and ignored.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'ccc', 'compile-cache');
  const homeDir = env.HOME?.trim() || safeHome(home);
  return homeDir && path.isAbsolute(homeDir) ? path.join(homeDir, '.cache', 'ccc', 'compile-cache') : undefined;
}

/** Turns the cache on for the modules this process loads from now on (call it before the first heavy import). */
export function useCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const dir = compileCacheDir(env);
  // `enableCompileCache` is Node 22.1's; ccc's lowest Node has it, an older one just goes without.
  const enable = (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (dir !== undefined && enable !== undefined) enable(dir);
}

function safeHome(home: () => string): string | undefined {
  try {
    return home();
  } catch {
    return undefined;
  }
}
