/**
 * Where a built helper is kept: `<config dir>/ccc/native/<key>/`, the key naming everything the
 * binary depends on (ccc's version, the hash of the C sources, the platform and architecture).
 * Another ccc version, an edited source or another machine sharing the config directory (a
 * synced home) each get their own directory, never a binary built for something else.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HELPERS, helperSources } from './helper-build.js';

/** The package's root, two levels up from both `src/native/` and `dist/native/`. */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

export function platformName(): string {
  return `${process.platform}-${process.arch}`;
}

export function packageVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * `0.1.0-linux-x64-<16 hex digits of the sources' hash>`. The hash is the one the package's build
 * wrote (`dist/prebuilt/sources.sha256`: the sources of an installed package never change, and
 * this keeps hashing off the start path), else computed. Throws when a source is missing.
 */
export function helperCacheKey(root: string): string {
  let hash: string;
  try {
    hash = fs.readFileSync(sourcesHashFile(root), 'utf8').trim();
  } catch {
    hash = sourcesHash(root);
  }
  return `${packageVersion(root)}-${platformName()}-${hash.slice(0, 16)}`;
}

export function sourcesHashFile(root: string): string {
  return path.join(root, 'dist', 'prebuilt', 'sources.sha256');
}

export function sourcesHash(root: string): string {
  const hash = crypto.createHash('sha256');
  for (const name of HELPERS) {
    for (const file of helperSources(path.join(root, 'native'), name)) {
      hash.update(`${path.basename(file)}\0`);
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex');
}

export function helperCacheDir(configDir: string, key: string): string {
  return path.join(configDir, 'ccc', 'native', key);
}
