/**
 * The TypeScript examples of the docs compile under `strict`, as a user's project would compile
 * them against the package's own types (dist/*.d.ts: run `npm run build` first): the typed plugin
 * example of docs/plugins.md ("Plugins"), the ccc.config.ts that calls it, misuses that must not
 * compile, the type assertions of define-checker.test.ts, and the ccc.config.ts examples of
 * README.md and docs/configuration.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The fenced `ts` blocks of the section `heading` (a `## ` heading) of the page `file`, in order. */
function tsBlocks(file: string, heading: string): string[] {
  const page = fs.readFileSync(path.join(root, file), 'utf8');
  const start = page.indexOf(`\n${heading}\n`);
  expect(start, `${file}: ${heading}`).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + heading.length + 2);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The diagnostics of a strict NodeNext compile of `files`, as `file:line: message`. */
function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ['node'],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the TypeScript examples of the docs', () => {
  it('compiles under strict against the package types, and the type errors it promises are errors', () => {
    const blocks = tsBlocks('docs/plugins.md', '## Plugins');
    const plugin = blocks.find((b) => b.startsWith('// checkers/changelog.ts'));
    const config = blocks.find((b) => b.startsWith('// ccc.config.ts'));
    expect(plugin, 'the plugin block').toBeDefined();
    expect(config, 'the config block').toBeDefined();
    // Inside the package, so that `ccc-supervisor` resolves to this package's exports as installed.
    dir = fs.mkdtempSync(path.join(root, '.docs-example-'));
    fs.mkdirSync(path.join(dir, 'checkers'));
    fs.writeFileSync(path.join(dir, 'checkers', 'changelog.ts'), plugin!);
    fs.writeFileSync(path.join(dir, 'ccc.config.ts'), config!);
    fs.writeFileSync(
      path.join(dir, 'misuse.ts'),
      `import testGate from 'ccc-supervisor/plugins/test-gate';
import changelog from './checkers/changelog.ts';
// @ts-expect-error: an option test-gate does not have
testGate({ comand: 'npm test' });
// @ts-expect-error: a file that is not a string
changelog({ file: 3 });
const declaration: { use: string } = changelog({ file: 'CHANGES.md' });
export { declaration };
`,
    );
    // Every setting of docs/configuration.md, and the README's shorter example.
    const configs = { 'config-docs.ts': tsBlocks('docs/configuration.md', '## Every setting'), 'config-readme.ts': tsBlocks('README.md', '## Configuration') };
    for (const [name, found] of Object.entries(configs)) {
      expect(found, name).toHaveLength(1);
      fs.writeFileSync(path.join(dir, name), found[0]!);
    }
    const files = ['checkers/changelog.ts', 'ccc.config.ts', 'misuse.ts', ...Object.keys(configs)].map((f) => path.join(dir!, f));
    expect(compile([...files, path.join(root, 'test/checkers/define-checker.test.ts')])).toEqual([]);
    // A whole type-check of the package's types: CPU-bound, 20 s on an idle 2-core machine and past
    // the default minute beside busy loops. The time limit guards against a hang, not a slow compile.
  }, 240_000);
});
