// The layer rule of docs/design/architecture.md ("Layers"), checked over src/: a runtime import may go to
// its own layer or below; one that goes up must say why in a comment containing "up the layers" on
// its line or in the comment lines right above it. A leaf (a module that imports no project module at runtime) counts as
// the bottom layer wherever it lives. Type-only imports are erased by tsc and do not count.
// Run: node scripts/import-layers.mjs (exit 1 with one line per unexplained import).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Bottom to top; a folder of src/ (or a file at its root) and its layer. Keep in step with docs/design/architecture.md. */
export const LAYERS = [
  ['errors.ts', 'rx.ts', 'user-file.ts', 'file-bounds.ts', 'value-text.ts', 'lifetime'],
  ['state', 'log', 'config', 'process', 'native'],
  ['frames', 'claude', 'settings', 'pty', 'input', 'stop', 'init'],
  ['observer', 'checkers'],
  ['loop', 'report', 'supervise'],
  ['providers', 'mcp', 'kanban', 'doctor'],
  ['cli', 'index.ts'],
];

export const JUSTIFIED = /up the layers/i;

export function layerOf(srcRelative) {
  const room = srcRelative.split('/')[0];
  const layer = LAYERS.findIndex((rooms) => rooms.includes(room));
  if (layer < 0) throw new Error(`src/${srcRelative}: its folder "${room}" has no layer in scripts/import-layers.mjs`);
  return layer;
}

/** The project modules one source file imports at runtime: { spec, target (src-relative), line }. */
export function runtimeImports(srcRelative, text) {
  const source = ts.createSourceFile(srcRelative, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node, spec) => {
    if (!spec.startsWith('.')) return;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(srcRelative), spec)).replace(/\.js$/, '.ts');
    found.push({ spec, target, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) add(node, node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) add(node, node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node, node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import's own line, or the comment lines right above it, say "up the layers". */
function saysWhy(lines, line) {
  if (JUSTIFIED.test(lines[line] ?? '')) return true;
  for (let above = line - 1; above >= 0 && /^\s*(\/\/|\/\*|\*)/.test(lines[above]); above--) {
    if (JUSTIFIED.test(lines[above])) return true;
  }
  return false;
}

/** Every runtime import in `files` (src-relative path → text) that goes up the layers without saying why. */
export function unexplainedUpwardImports(files) {
  const imports = new Map([...files].map(([file, text]) => [file, runtimeImports(file, text)]));
  const isLeaf = (file) => (imports.get(file) ?? []).length === 0;
  const problems = [];
  for (const [file, list] of imports) {
    const lines = files.get(file).split('\n');
    for (const { spec, target, line } of list) {
      if (isLeaf(target) || layerOf(target) <= layerOf(file)) continue;
      if (saysWhy(lines, line)) continue;
      problems.push(`src/${file}:${line + 1} imports ${spec} (layer ${layerOf(file)} → ${layerOf(target)}) without a comment saying why ("up the layers: …")`);
    }
  }
  return problems;
}

export function readSources(srcDir) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        files.set(path.relative(srcDir, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
      }
    }
  };
  walk(srcDir);
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = unexplainedUpwardImports(readSources(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src')));
  for (const problem of problems) console.log(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
