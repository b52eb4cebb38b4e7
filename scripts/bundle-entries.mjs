#!/usr/bin/env node
/**
 * Bundles ccc's two start-up paths, in `npm run build` after tsc, because Node loading ccc's
 * modules file by file was most of their time (src/cli/main.ts takes a bundle when it is there
 * and not older than the modules, else the files):
 *
 * - dist/hook/: the Stop hook (dist/cli/supervisor-hook.js and everything it imports, its
 *   dependencies included). Claude Code waits for `ccc supervisor-hook` at every stop; one file per
 *   entry (the standalone decision a split chunk, so the `--proxy` hook does not parse it) loads in
 *   about half the time (bench/review-breakdown.mjs).
 * - dist/launch/: everything else (dist/cli/run-cli.js: the supervised launch, the commands), so a
 *   supervised session reaches claude's spawn sooner and loads less while claude starts
 *   (bench/startup.mjs, "the claude prompt"). Split at each dynamic import, as the modules are: what
 *   one path does not need, it does not load. The packages it imports with a dynamic import() stay
 *   outside (esbuild gives a CommonJS package behind import() only a default export), and so do
 *   node-pty's native addon and ws's optional ones; rxjs is taken from its ES module build, one copy
 *   for every import of it. The build fails if a CommonJS package is ever left behind an import().
 *
 * Each module of ccc keeps its own `import.meta.url` (rewritten to its file in dist/), so the
 * paths it finds from there (the guard script, the package root, plugin and screen workers,
 * createRequire of cosmiconfig and jiti) are what they are unbundled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const outdirs = ['hook', 'launch'].map((name) => path.join(dist, name));

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  for (const outdir of outdirs) fs.rmSync(outdir, { recursive: true, force: true });
  console.warn('ccc: esbuild is not installed, so ccc runs from its separate files (slower to start)');
  process.exit(0);
}

/** `import.meta.url` of a module in dist/, as a bundle in `outdir` computes it. */
const ownUrl = (outdir) => ({
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + path.sep) || outdirs.some((dir) => args.path.startsWith(dir + path.sep))) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'js' };
    });
  },
});

/** rxjs's ES module build for `rxjs` and `rxjs/internal/*` alike: named exports behind import(), one class per name. */
const rxjsModules = {
  name: 'rxjs-es-modules',
  setup(build) {
    const esm = path.join(path.dirname(fileURLToPath(import.meta.resolve('rxjs/package.json'))), 'dist', 'esm');
    build.onResolve({ filter: /^rxjs(\/.*)?$/ }, (args) => ({
      path: path.join(esm, `${args.path === 'rxjs' ? 'index' : args.path.slice('rxjs/'.length)}.js`),
    }));
  },
};

const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // The CommonJS dependencies (proper-lockfile, graceful-fs, …) call require() for Node's modules.
  banner: { js: "import { createRequire as __cccCreateRequire } from 'node:module'; const require = __cccCreateRequire(import.meta.url);" },
};

async function bundle(name, entry, options) {
  const outdir = path.join(dist, name);
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    ...common,
    ...options,
    entryPoints: { [path.basename(entry, '.js')]: path.join(dist, entry) },
    outdir,
    plugins: [ownUrl(outdir), ...(options.plugins ?? [])],
  });
  // A chunk that only re-exports a CommonJS module as its default: an import() of it would find no named exports.
  for (const file of fs.readdirSync(outdir)) {
    if (/^export default require_\w+\(\);$/m.test(fs.readFileSync(path.join(outdir, file), 'utf8'))) {
      fs.rmSync(outdir, { recursive: true, force: true });
      throw new Error(`dist/${name}/${file} is a CommonJS package behind a dynamic import(): add it to the externals of scripts/bundle-entries.mjs`);
    }
  }
}

await bundle('hook', 'cli/supervisor-hook.js', {});
await bundle('launch', 'cli/run-cli.js', {
  external: ['@lydell/node-pty', 'commander', 'cosmiconfig', 'jiti', 'node-sqlite3-wasm', 'proper-lockfile', 'bufferutil', 'utf-8-validate'],
  plugins: [rxjsModules],
});
