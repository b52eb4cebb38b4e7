/**
 * The README is the user's way in: before any contributor command it says what ccc is and how a
 * user installs and runs it; its first command block still opens with the two lines CI runs (the
 * install and demo, then the suite). The docs' index is kept once, in docs/README.md, and
 * CONTRIBUTING.md has the three recipes and names every lint step.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The rows of the markdown tables in `text` that link a page: the link targets, as written. */
function indexedPages(text: string, prefix: string): string[] {
  return [...text.matchAll(/^\| \[[^\]]+\]\(([^)#]+)\)/gm)].map((m) => path.posix.normalize(prefix + m[1]!));
}

describe("the README's first screen", () => {
  const readme = read('README.md');
  const firstBlock = readme.indexOf('```sh\n');

  it('says what ccc is and how to install and run it before the first command block', () => {
    const before = readme.slice(0, firstBlock);
    expect(before).toMatch(/`ccc` runs the `claude` CLI/);
    expect(before).toMatch(/npm install -g \./);
    expect(before).toMatch(/`ccc init`/);
    expect(before).toMatch(/`ccc --supervisor`/);
    // On the first screen (24 lines of a terminal), not only before the block.
    expect(readme.split('\n').findIndex((line) => line.includes('`ccc --supervisor`'))).toBeLessThan(24);
  });

  it('opens its first command block with the install and demo, then the suite', () => {
    const lines = readme
      .slice(firstBlock + '```sh\n'.length)
      .split('\n')
      .slice(0, 2)
      .map((l) => l.replace(/\s+#.*$/, ''));
    expect(lines).toEqual(['npm ci && npm run demo', 'npm run test:setup && npm test']);
  });

  it("keeps the docs' index once, in docs/README.md", () => {
    const docsIndex = indexedPages(read('docs/README.md'), 'docs/');
    expect(docsIndex.length).toBeGreaterThan(10);
    const readmeIndex = indexedPages(readme, '');
    expect(readmeIndex.filter((page) => docsIndex.includes(page))).toEqual([]);
  });
});

describe('CONTRIBUTING.md', () => {
  const contributing = read('CONTRIBUTING.md');

  it('has a recipe for a checker, a driver and a reporter', () => {
    for (const recipe of ['### A checker', '### A driver', '### A reporter']) expect(contributing).toContain(recipe);
  });

  it('names every step of npm run lint', () => {
    const lint = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.lint!;
    const steps = lint.split('&&').map((s) => (s.trim().split(' ')[0] === 'npm' ? s.trim().split(' ').at(-1)! : s.trim().split(' ')[0]!));
    expect(steps).toEqual(['typecheck', 'eslint', 'prettier', 'knip']);
    const said = contributing.slice(contributing.indexOf('`npm run lint`'), contributing.indexOf('`npm run bench`'));
    for (const step of steps) expect(said).toContain(step);
  });
});
