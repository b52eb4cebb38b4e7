/** Every file of a project and its content hash: "byte-identical" is equality of two of these. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** `skip`: top-level folders a runner writes its build into by design (cargo's `target/`), left out. */
export function projectSnapshot(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, file);
    if (skip.includes(relative.split(path.sep)[0]!)) continue;
    if (entry.isFile()) out[relative] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    else if (entry.isDirectory()) out[`${relative}/`] = 'dir';
    else if (entry.isSymbolicLink()) out[relative] = `-> ${fs.readlinkSync(file)}`;
  }
  return out;
}
