/**
 * The project directory as test-command detection reads it: whether a file exists, its text, the
 * names in a folder. An interface so the detection table is unit-tested on an in-memory project;
 * `projectFiles` is the real directory.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ProjectFiles {
  /** True when the relative path names a file or folder. */
  exists(name: string): boolean;
  /** The text of a file, or undefined when it cannot be read (absent, a folder, no permission). */
  read(name: string): string | undefined;
  /** The names in a folder (`.` is the project itself), or none when it cannot be listed. */
  list(dir: string): string[];
}

/** Files larger than this are not read: no marker file of a build tool is that big. */
const MAX_READ_BYTES = 1024 * 1024;

export function projectFiles(root: string): ProjectFiles {
  const at = (name: string) => path.join(root, name);
  return {
    exists: (name) => fs.existsSync(at(name)),
    read: (name) => {
      try {
        const stat = fs.statSync(at(name));
        return stat.isFile() && stat.size <= MAX_READ_BYTES ? fs.readFileSync(at(name), 'utf8') : undefined;
      } catch {
        return undefined;
      }
    },
    list: (dir) => {
      try {
        return fs.readdirSync(at(dir));
      } catch {
        return [];
      }
    },
  };
}

/** An in-memory project: relative path → text (a folder exists when a file is inside it). */
export function memoryProjectFiles(files: Record<string, string>): ProjectFiles {
  const names = Object.keys(files);
  const inside = (dir: string) => (dir === '.' ? '' : `${dir.replace(/\/$/, '')}/`);
  return {
    exists: (name) => name in files || names.some((n) => n.startsWith(inside(name))),
    read: (name) => files[name],
    list: (dir) => [...new Set(names.filter((n) => n.startsWith(inside(dir))).map((n) => n.slice(inside(dir).length).split('/')[0]!))],
  };
}
