/**
 * The two tiers of the suite. The fast tier (`npm run test:fast`, vitest.fast.config.ts) is every
 * test file that drives nothing heavy: no real claude, no pty, no Chromium, no built `dist/`, no
 * system tool (test/support/tools.ts). Those files run in seconds, need no build and, on the shared
 * machine, no heavy lock. A file is told by what it uses, read from its source: a new test that
 * starts claude through the support modules is in the full suite only, without a list to keep.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The support modules that start claude, a pty, Chromium, codex, `dist/` or a registry: importing one makes a file heavy. */
const HEAVY_SUPPORT = [
  'fixtures',
  'pty-harness',
  'job-shell',
  'ccc-run',
  'chromium',
  'codex-env',
  'github-runner',
  'npm-registry',
  'fresh-review-project',
  'mcp-process',
];

/** What a heavy file names itself: a binary's path, a claude world, a tool it needs, the built `dist/`. */
const HEAVY_USE = /\b(claudeBin|cccBin|codexBin|makeClaudeWorld|needs)\b|\bdist\/|'dist'/;

/** The support modules a source imports, by name (`../support/fixtures.js` → `fixtures`; `./x.js` from a support module → `x`). */
function supportImports(source: string, inSupport: boolean): string[] {
  const pattern = inSupport ? /from '\.\/([\w-]+)\.js'/g : /from '[./]*(?:[\w-]+\/)*support\/([\w-]+)\.js'/g;
  return [...source.matchAll(pattern)].map((match) => match[1]!);
}

/**
 * The support modules that are heavy, themselves or through what they import: a shared test body
 * (the verification matrix) that takes its claude from the fixtures makes every file using it heavy.
 */
function heavySupport(support: string): Set<string> {
  const imports = new Map(
    fs
      .readdirSync(support)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => [file.slice(0, -'.ts'.length), supportImports(fs.readFileSync(path.join(support, file), 'utf8'), true)]),
  );
  const heavy = new Set(HEAVY_SUPPORT);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, uses] of imports) {
      if (!heavy.has(name) && uses.some((use) => heavy.has(use))) grew = heavy.add(name).size > 0;
    }
  }
  return heavy;
}

/** The heavy test files under `root`/test, as paths relative to `root`. */
export function heavyTestFiles(root: string): string[] {
  const test = path.join(root, 'test');
  const heavy = heavySupport(path.join(test, 'support'));
  return fs
    .readdirSync(test, { recursive: true, encoding: 'utf8' })
    .filter((file) => {
      if (!file.endsWith('.test.ts')) return false;
      const source = fs.readFileSync(path.join(test, file), 'utf8');
      const inSupport = path.basename(path.dirname(file)) === 'support';
      return HEAVY_USE.test(source) || supportImports(source, inSupport).some((name) => heavy.has(name));
    })
    .map((file) => path.join('test', file))
    .sort();
}
