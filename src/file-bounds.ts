/**
 * Whether a file ccc reads really is where it was looked for. A file ccc reads from a project and
 * sends on (SUPERVISOR.md to the model, a config file whose excerpt an error quotes) can be a
 * symlink or a `..` path out of the project: to `/proc/self/environ`, to a private key. What was
 * opened is what counts: the descriptor's own path (Linux's /proc/self/fd), so a link swapped
 * between a check and the read changes nothing. A leaf.
 */
import fs from 'node:fs';
import path from 'node:path';

/** True when `target` is `root` or inside it, compared as written (pass real paths to compare real places). */
export function within(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real paths of `roots`; a root that does not exist holds nothing and is left out. */
export function realRoots(roots: readonly string[]): string[] {
  return roots.flatMap((root) => {
    try {
      return [fs.realpathSync(root)];
    } catch {
      return [];
    }
  });
}

/** Where the file open on `fd` really is: symlinks and `..` resolved. */
export function openedPath(fd: number, file: string): string {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc (macOS): the path resolved now, the same place unless it changed since the open.
    return fs.realpathSync(file);
  }
}

/** True when `real` is inside one of `roots` (real paths). */
export function insideAny(roots: readonly string[], real: string): boolean {
  return roots.some((root) => within(root, real));
}

/** True when `file` itself is a symbolic link (dangling or not). */
export function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
