/**
 * Whether cosmiconfig has anything to find: a directory from `cwd` up to the root holding one of
 * the project config names. Most starts have none, and then cosmiconfig (and its parsers) need not
 * load at all (every launch paid for it; docs/design/architecture.md, "Start-up"). A package.json counts only when it has a `ccc`
 * key or cannot be parsed, so that cosmiconfig still reads and reports it; the answer may say yes
 * where cosmiconfig then finds nothing, never the reverse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readUserFileSync } from '../user-file.js';

/** Project config file names, in the order they are tried within one directory. */
export const projectSearchPlaces = [
  'ccc.config.ts',
  'ccc.config.mts',
  'ccc.config.js',
  'ccc.config.mjs',
  'ccc.config.cjs',
  '.cccrc',
  '.cccrc.json',
  '.cccrc.yaml',
  '.cccrc.yml',
  '.cccrc.js',
  '.cccrc.ts',
  'package.json',
];

export function mayHoldProjectConfig(cwd: string, names: readonly string[]): boolean {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (names.some((name) => (name === 'package.json' ? packageJsonHasKey(path.join(dir, name), 'ccc') : fs.existsSync(path.join(dir, name))))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

function packageJsonHasKey(file: string, key: string): boolean {
  // A package.json that is not a file is named by readProjectFile before cosmiconfig opens it.
  const read = readUserFileSync(file);
  if (!read.ok) return read.problem.kind === 'not-a-file';
  const text = read.text;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && Object.hasOwn(parsed, key);
  } catch {
    return true;
  }
}
