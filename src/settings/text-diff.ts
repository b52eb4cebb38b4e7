/**
 * A unified-style line diff, for `--dry-run`: the user sees exactly which lines of their file
 * would change before anything is written. Settings files are small, so a plain LCS table is
 * enough; beyond `maxCells` it falls back to "everything removed, everything added".
 */
export interface DiffOptions {
  fromLabel: string;
  toLabel: string;
  context?: number;
  maxCells?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

export function unifiedDiff(before: string, after: string, options: DiffOptions): string {
  if (before === after) return '';
  const ops = diffLines(splitLines(before), splitLines(after), options.maxCells ?? 4_000_000);
  const lines = [`--- ${options.fromLabel}`, `+++ ${options.toLabel}`];
  for (const hunk of hunks(ops, options.context ?? 3)) lines.push(...hunk);
  return `${lines.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function diffLines(a: string[], b: string[], maxCells: number): Op[] {
  if (a.length * b.length > maxCells) {
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  }
  // lcs[i][j] = length of the longest common subsequence of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ kind: '-', line: a[i++]! }); // removals first, as diff(1) shows them
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  return ops;
}

/** Groups changes with `context` unchanged lines around them, with `@@ -a,n +b,m @@` headers. */
function hunks(ops: Op[], context: number): string[][] {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const result: string[][] = [];
  let cursor = 0;
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - context);
    let end = changed[cursor]!;
    while (cursor < changed.length && changed[cursor]! - end <= 2 * context) end = changed[cursor++]!;
    end = Math.min(ops.length - 1, end + context);
    result.push(renderHunk(ops, start, end));
  }
  return result;
}

function renderHunk(ops: Op[], start: number, end: number): string[] {
  let oldStart = 1;
  let newStart = 1;
  for (const op of ops.slice(0, start)) {
    if (op.kind !== '+') oldStart++;
    if (op.kind !== '-') newStart++;
  }
  const body = ops.slice(start, end + 1);
  const oldCount = body.filter((op) => op.kind !== '+').length;
  const newCount = body.filter((op) => op.kind !== '-').length;
  return [`@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`, ...body.map((op) => `${op.kind}${op.line}`)];
}
