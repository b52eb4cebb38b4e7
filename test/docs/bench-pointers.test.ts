/**
 * Code comments give a measurement's reason in words and point to its figures by heading ("see
 * bench/RESULTS.md, <heading>"). Every such heading must exist in the part of bench/RESULTS.md that
 * is kept by hand, and that part must survive `npm run bench`, which rewrites the rest of the
 * file: otherwise a pointer leads nowhere after the next run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const RESULTS = path.join(root, 'bench/RESULTS.md');
const KEPT = '# Measurements kept by hand';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** Every `see bench/RESULTS.md, "<heading>"` in `text`, a comment wrapped over lines read as one. */
function pointersIn(text: string): string[] {
  const joined = text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
  return [...joined.matchAll(/bench\/RESULTS\.md, "([^"]+)"/g)].map((m) => m[1]!);
}

/** The `##` headings of RESULTS.md's kept part. */
function keptHeadings(results: string): Set<string> {
  const at = results.search(new RegExp(`^${KEPT}$`, 'm'));
  if (at < 0) return new Set();
  return new Set([...results.slice(at).matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim()));
}

describe('pointers from code comments to bench/RESULTS.md', () => {
  it('reads a pointer wrapped over comment lines', () => {
    const text = ' * costs a fraction (see bench/RESULTS.md, "Alternate-screen tracking: one search\n   * per chunk"), and';
    expect(pointersIn(text)).toEqual(['Alternate-screen tracking: one search per chunk']);
    expect(pointersIn('  // see bench/RESULTS.md, "The front: one\n  // more Node start".')).toEqual(['The front: one more Node start']);
  });

  it('every heading a comment in src/ points to is in the part of RESULTS.md kept by hand', () => {
    const headings = keptHeadings(fs.readFileSync(RESULTS, 'utf8'));
    const pointers = sourceFiles('src').flatMap((file) => pointersIn(fs.readFileSync(path.join(root, file), 'utf8')).map((heading) => ({ file, heading })));
    expect(pointers.length).toBeGreaterThan(0);
    expect(pointers.filter((p) => !headings.has(p.heading))).toEqual([]);
  });

  it('a new bench run keeps that part', async () => {
    const report = (await import(path.join(root, 'bench/lib/report.mjs'))) as { withKeptPart: (report: string, previous: string) => string };
    const previous = fs.readFileSync(RESULTS, 'utf8');
    const next = report.withKeptPart('# Benchmark results\n\nRun today.\n', previous);
    expect(next.startsWith('# Benchmark results\n\nRun today.\n')).toBe(true);
    expect(keptHeadings(next)).toEqual(keptHeadings(previous));
    expect(next).not.toContain('Run 2026-');
  });
});
