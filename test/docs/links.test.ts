/**
 * The documentation's links hold: every relative link in README.md, CONTRIBUTING.md, bench/README.md
 * and docs/**.md names a file or folder that exists, every `#anchor` names a heading of the page it
 * points to (as GitHub derives anchors), and every repository path a page names in code (`src/…`,
 * `docs/…`) exists. Pages move and sections get renamed; this is what keeps the README's links and
 * the docs' cross-references from rotting silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const md = new MarkdownIt({ html: true });
type Token = ReturnType<typeof md.parse>[number];

/** The markdown pages whose links are checked, relative to the repository root. */
function pages(): string[] {
  const docs = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) return docs(rel);
      return e.name.endsWith('.md') ? [rel] : [];
    });
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...docs('docs')];
}

/** The text of an inline token, as a heading's anchor is made from it (code spans keep their text). */
function inlineText(token: Token): string {
  return (token.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const tokens = md.parse(markdown, {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const base = inlineText(tokens[i + 1]!)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  });
  return anchors;
}

/** Every link target and every code span of a page, outside fenced code blocks. */
function linksAndCode(markdown: string): { links: string[]; code: string[] } {
  const links: string[] = [];
  const code: string[] = [];
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (t.type === 'link_open') links.push(String(t.attrGet('href') ?? ''));
      if (t.type === 'code_inline') code.push(t.content);
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(markdown, {}));
  return { links, code };
}

/** A code span that names a file of this repository by its path from the root. */
const REPO_PATH = /^(?:src|test|docs|bench|native|scripts|demo|plugins|assets)\/[\w./-]*[\w/]$/;

/** What is wrong with the links of `page`, one line each. */
function brokenLinks(page: string): string[] {
  const text = fs.readFileSync(path.join(root, page), 'utf8');
  const { links, code } = linksAndCode(text);
  const problems: string[] = [];
  for (const href of links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto: and the like
    const [file, anchor] = href.split('#') as [string, string | undefined];
    const target = file === '' ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), decodeURI(file));
    if (!fs.existsSync(target)) {
      problems.push(`${page}: ${href}: no such file`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(fs.readFileSync(target, 'utf8')).has(anchor))
      problems.push(`${page}: ${href}: no heading with that anchor`);
  }
  for (const span of code) {
    if (!REPO_PATH.test(span) || span.includes('*')) continue;
    if (!fs.existsSync(path.join(root, span))) problems.push(`${page}: \`${span}\`: no such path in the repository`);
  }
  return problems;
}

describe('the documentation links', () => {
  it('derives anchors as GitHub does', () => {
    const anchors = anchorsOf('# ccc — make it finish\n## `ccc kanban`\n## Files\n## Files\n## What to allow: nothing\n');
    expect([...anchors]).toEqual(['ccc--make-it-finish', 'ccc-kanban', 'files', 'files-1', 'what-to-allow-nothing']);
  });

  it('every relative link, anchor and repository path named in the docs resolves', () => {
    expect(pages().flatMap(brokenLinks)).toEqual([]);
  });
});
