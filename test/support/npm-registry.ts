/**
 * A local npm registry for tests that run the real `npm` client: it serves, for each package it is
 * given, a packument and one tarball built from the given files. Only what `npm view` and
 * `npm install` read is served; anything else is a 404, as the real registry answers for an unknown
 * name.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runProcess } from './run-process.js';

export interface RegistryPackage {
  /** Its package.json (name and version are required). */
  manifest: { name: string; version: string } & Record<string, unknown>;
  /** Other files of the package, by path inside it; `mode` 0o755 for executables. */
  files: Record<string, { text: string; mode?: number }>;
}

export interface NpmRegistry {
  url: string;
  close(): Promise<void>;
}

async function packTarball(pkg: RegistryPackage, dir: string): Promise<Buffer> {
  const root = fs.mkdtempSync(path.join(dir, 'pack-'));
  const files: RegistryPackage['files'] = { 'package.json': { text: JSON.stringify(pkg.manifest, null, 2) }, ...pkg.files };
  for (const [name, file] of Object.entries(files)) {
    const target = path.join(root, 'package', name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.text, { mode: file.mode ?? 0o644 });
  }
  const tarball = path.join(root, 'package.tgz');
  const tar = await runProcess('tar', ['-czf', tarball, '-C', root, 'package']);
  if (tar.code !== 0) throw new Error(`tar failed: ${tar.stderr}`);
  return fs.readFileSync(tarball);
}

/** Starts the registry on 127.0.0.1; `dir` holds the packed tarballs. */
export async function startNpmRegistry(packages: RegistryPackage[], dir: string): Promise<NpmRegistry> {
  const tarballs = new Map<string, Buffer>();
  const packuments = new Map<string, Record<string, unknown>>();
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const packument = packuments.get(name);
    const tarball = tarballs.get(name);
    const body = packument ? Buffer.from(JSON.stringify(packument)) : tarball;
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': packument ? 'application/json' : 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  for (const pkg of packages) {
    const { name, version } = pkg.manifest;
    const data = await packTarball(pkg, dir);
    const file = `${name}/-/${name.split('/').pop()}-${version}.tgz`;
    tarballs.set(file, data);
    const dist = { tarball: url + file, integrity: `sha512-${crypto.createHash('sha512').update(data).digest('base64')}` };
    packuments.set(name, { name, 'dist-tags': { latest: version }, versions: { [version]: { ...pkg.manifest, dist } } });
  }
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
