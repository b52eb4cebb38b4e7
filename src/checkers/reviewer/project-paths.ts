/**
 * Whether a path the reviewer gives a test runner stays inside the project: resolved against the
 * directory the command runs in, refused when it leaves the project lexically (`..`, an absolute
 * path elsewhere, `~`) or through a symlink that points out. A glob may only be in the last part
 * of the path, and none of the entries it could match may be a symlink out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isSymlink, within } from '../../file-bounds.js';

export type PathCheck = { ok: true } | { ok: false; reason: string };

const GLOB = /[*?[]/;

export function pathInside(root: string, base: string, word: string): PathCheck {
  if (word === '') return { ok: false, reason: 'an empty path' };
  if (word.startsWith('~')) return { ok: false, reason: `\`${word}\` is outside the project` };
  if (/[{}]/.test(word)) return { ok: false, reason: `\`${word}\`: braces expand to other paths` };
  const full = path.resolve(base, word);
  if (!within(root, full)) return { ok: false, reason: `\`${word}\` is outside the project` };
  const parts = path.relative(root, full).split(path.sep);
  const globAt = parts.findIndex((p) => GLOB.test(p));
  if (globAt !== -1 && globAt < parts.length - 1) return { ok: false, reason: `\`${word}\`: a pattern may only be in the last part of a path` };
  const fixed = path.join(root, ...parts.slice(0, globAt === -1 ? parts.length : globAt));
  if (!realWithin(root, fixed)) return { ok: false, reason: `\`${word}\` leads out of the project through a symlink` };
  if (globAt !== -1) {
    const pattern = globRegExp(parts[globAt]!);
    const escaping = entries(fixed).find((name) => pattern.test(name) && !realWithin(root, path.join(fixed, name)));
    if (escaping) return { ok: false, reason: `\`${word}\` matches ${escaping}, a symlink out of the project` };
  }
  return { ok: true };
}

/** The path's real location (its longest existing prefix, resolved) is inside the project. */
function realWithin(root: string, full: string): boolean {
  let existing = full;
  while (!fs.existsSync(existing) && !isSymlink(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  try {
    return within(fs.realpathSync(root), fs.realpathSync(existing));
  } catch {
    return false; // a dangling symlink, or a loop: it points somewhere ccc cannot see
  }
}

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** A shell glob of one path part as a regular expression (`*`, `?`, `[…]`). */
function globRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) source += '\\[';
      else {
        source += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`, 's');
  } catch {
    return /^/; // a class ccc cannot read matches everything: every entry is checked
  }
}
