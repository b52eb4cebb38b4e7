/**
 * Whether a package resolves from a project directory as an editor or `tsc` there would find it
 * (node_modules up the tree). ccc installed only globally does not: a config that imports it would
 * load (ccc resolves its own name) but show as an error in the user's editor.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export function packageResolvesFrom(cwd: string, name: string): boolean {
  try {
    createRequire(path.join(cwd, 'package.json')).resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}
