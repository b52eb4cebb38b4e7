// The layer rule of docs/design/architecture.md ("Layers"), checked over src/: an import goes to
// its own layer or below, never up. A leaf (a module that imports no project module, not even a
// type) counts as the bottom layer wherever it lives. And no module reaches itself through its
// imports. Type-only imports count for both: tsc erases them, but a type names what
// the code is written against, so a type that climbs or loops ties the layers together all the same.
// Run: node scripts/import-layers.mjs (exit 1 with one line per unexplained import or cycle).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Bottom to top; a folder of src/ (or a file at its root) and its layer. Keep in step with docs/design/architecture.md. */
export const LAYERS = [
  ['errors.ts', 'rx.ts', 'user-file.ts', 'file-bounds.ts', 'value-text.ts', 'lifetime'],
  ['state', 'log', 'config', 'process', 'native'],
  ['frames', 'claude', 'settings', 'pty', 'input', 'stop', 'init'],
  ['checkers'],
  ['loop', 'sessions', 'reporters', 'observer'],
  ['providers', 'mcp', 'kanban', 'doctor', 'starter', 'drivers'],
  ['cli', 'index.ts'],
];

export function layerOf(srcRelative) {
  const room = srcRelative.split('/')[0];
  const layer = LAYERS.findIndex((rooms) => rooms.includes(room));
  if (layer < 0) throw new Error(`src/${srcRelative}: its folder "${room}" has no layer in scripts/import-layers.mjs`);
  return layer;
}

/** The project modules one source file imports: { spec, target (src-relative), line, typeOnly }. */
export function projectImports(srcRelative, text) {
  const source = ts.createSourceFile(srcRelative, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node, spec, typeOnly) => {
    if (!spec.startsWith('.')) return;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(srcRelative), spec)).replace(/\.(c?)js$/, '.$1ts');
    found.push({ spec, target, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line, typeOnly });
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
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      // `import('./x.js').T` in a type position.
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every import in `files` (src-relative path → text), type-only included, that goes up the layers. */
export function upwardImports(files) {
  const imports = importsOf(files);
  const isLeaf = (file) => (imports.get(file) ?? []).length === 0;
  const problems = [];
  for (const [file, list] of imports) {
    for (const { spec, target, line, typeOnly } of list) {
      if (isLeaf(target) || layerOf(target) <= layerOf(file)) continue;
      const what = typeOnly ? 'imports types from' : 'imports';
      problems.push(
        `src/${file}:${line + 1} ${what} ${spec} (layer ${layerOf(file)} → ${layerOf(target)}): move one of them, or the shared part into a leaf or a lower layer`,
      );
    }
  }
  return problems;
}

/**
 * The import cycles in `files`, type-only imports included: one line for each group of modules
 * that reach one another (a strongly connected component), naming its shortest cycle.
 */
export function importCycles(files) {
  const imports = importsOf(files);
  const next = (file) => [...new Set((imports.get(file) ?? []).map((i) => i.target).filter((t) => imports.has(t)))];
  // Tarjan's algorithm, iterative so a long chain of imports cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const groups = [];
  let counter = 0;
  for (const root of [...imports.keys()].sort()) {
    if (index.has(root)) continue;
    const work = [{ file: root, targets: next(root), at: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, targets: next(target), at: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent), low.get(frame.file)));
      }
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.file);
      if (group.length > 1 || next(frame.file).includes(frame.file)) groups.push(group.sort());
    }
  }
  return groups.map((group) => {
    const cycle = shortestCycle(group[0], new Set(group), next);
    const more = group.length > cycle.length - 1 ? ` (${group.length} modules reach one another)` : '';
    return `import cycle: ${cycle.map((file) => `src/${file}`).join(' → ')}${more}`;
  });
}

/** The shortest path from `start` back to itself inside `group` (breadth first). */
function shortestCycle(start, group, next) {
  const cameFrom = new Map();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head];
    for (const target of next(file)) {
      if (!group.has(target)) continue;
      if (target === start) {
        const between = [];
        for (let at = file; at !== start; at = cameFrom.get(at)) between.unshift(at);
        return [start, ...between, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

function importsOf(files) {
  return new Map([...files].map(([file, text]) => [file, projectImports(file, text)]));
}

export function readSources(srcDir) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.set(path.relative(srcDir, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
      }
    }
  };
  walk(srcDir);
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sources = readSources(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const problems = [...upwardImports(sources), ...importCycles(sources)];
  for (const problem of problems) console.log(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
