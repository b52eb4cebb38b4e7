#!/usr/bin/env node
/**
 * Bundles the Stop hook's code (dist/cli/supervisor-hook.js and everything it imports, its
 * dependencies included) into dist/hook/, in `npm run build` after tsc. Claude Code waits for
 * `ccc supervisor-hook` at every stop, and Node 20 loading ccc's modules file by file was most of
 * the standalone hook's time before the reviewer's spawn (bench/review-breakdown.mjs): one file
 * per entry (the standalone decision a split chunk, so the `--proxy` hook does not parse it) loads
 * in about half the time. src/cli/main.ts takes the bundle when it is there, else the files.
 *
 * Each module of ccc keeps its own `import.meta.url` (rewritten to its file in dist/), so the
 * paths it finds from there (the guard script, the package root, plugin workers, createRequire of
 * cosmiconfig and jiti, which stay outside the bundle) are what they are unbundled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const outdir = path.join(dist, 'hook');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  fs.rmSync(outdir, { recursive: true, force: true });
  console.warn('ccc: esbuild is not installed, so the Stop hook runs from its separate files (slower to start)');
  process.exit(0);
}

/** `import.meta.url` of a module in dist/, as the bundle in dist/hook/ computes it. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + path.sep) || args.path.startsWith(outdir + path.sep)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { 'supervisor-hook': path.join(dist, 'cli', 'supervisor-hook.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // The CommonJS dependencies (proper-lockfile, graceful-fs, …) call require() for Node's modules.
  banner: { js: "import { createRequire as __cccCreateRequire } from 'node:module'; const require = __cccCreateRequire(import.meta.url);" },
  plugins: [ownUrl],
});
