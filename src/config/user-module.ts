/**
 * Loading the user's own modules (`ccc.config.ts`, checker plugins) through jiti, so TypeScript
 * works without a build step and without the compiler's JS API (design 11b). jiti is imported on
 * first use: most runs load no user module and keep a fast start.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Jiti } from 'jiti';

let instance: Jiti | undefined;

async function jiti(): Promise<Jiti> {
  if (instance) return instance;
  const { createJiti } = await import('jiti');
  instance = createJiti(import.meta.url, {
    fsCache: false,
    // Every load reads the file again: a long-running session may load an edited plugin or config.
    moduleCache: false,
    // `import { defineChecker } from 'ccc-supervisor'` works even where ccc is installed globally.
    alias: { 'ccc-supervisor': fileURLToPath(new URL('../index.js', import.meta.url)) },
  });
  return instance;
}

/** The module namespace of `file` (an absolute path): `default` and the named exports. */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  const loaded = await (await jiti()).import<unknown>(file);
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
