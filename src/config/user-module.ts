/**
 * Loading the user's own modules (`ccc.config.ts`, checker plugins) through jiti, so TypeScript
 * works without a build step and without the compiler's JS API (gone from TypeScript 7, which
 * cosmiconfig's own TypeScript loader needs). jiti is imported on first use: most runs load no user module and keep a fast start.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Jiti } from 'jiti';

const instances = new Map<string, Jiti>();

/**
 * One jiti per transpile cache: `cacheDir` keeps transpiled files on disk (uncached, a ccc.config.ts
 * pays Babel on every launch, several times what a cached load costs:
 * bench/results/2026-11-27-import-costs.md); without it nothing is written anywhere.
 */
async function jiti(cacheDir?: string): Promise<Jiti> {
  const key = cacheDir ?? '';
  const existing = instances.get(key);
  if (existing) return existing;
  // Required, not imported: jiti is a large CommonJS bundle, and an ESM import of it first scans
  // the whole file for its export names (bench/results/2026-11-27-import-costs.md).
  const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti');
  const instance = createJiti(import.meta.url, {
    fsCache: cacheDir ?? false,
    // Every load reads the file again: a long-running session may load an edited plugin or config.
    moduleCache: false,
    // `import { defineChecker } from 'ccc-supervisor'` works even where ccc is installed globally.
    // Likewise `import testGate from 'ccc-supervisor/plugins/test-gate'` in a ccc.config.ts: the
    // bundled plugins are built to dist/plugins/, two levels up from src/config/ and dist/config/.
    alias: {
      'ccc-supervisor': fileURLToPath(new URL('../index.js', import.meta.url)),
      'ccc-supervisor/plugins': fileURLToPath(new URL('../../dist/plugins', import.meta.url)),
    },
  });
  instances.set(key, instance);
  return instance;
}

/** The module namespace of `file` (an absolute path): `default` and the named exports. */
export async function importUserModule(file: string, options: { cacheDir?: string } = {}): Promise<Record<string, unknown>> {
  const loaded = await (await jiti(options.cacheDir)).import<unknown>(file);
  return loaded !== null && typeof loaded === 'object' ? (loaded as Record<string, unknown>) : { default: loaded };
}

/** Resolves a package name the way an `import` written in a file of `fromDir` would; undefined when not found. */
export async function resolvePackage(specifier: string, fromDir: string): Promise<string | undefined> {
  const resolver = await jiti();
  const parent = pathToFileURL(fromDir.endsWith('/') ? fromDir : `${fromDir}/`).href;
  try {
    const resolved = resolver.esmResolve(specifier, { parentURL: parent, try: true });
    return resolved === undefined ? undefined : resolved.startsWith('file:') ? fileURLToPath(resolved) : resolved;
  } catch {
    return undefined;
  }
}
