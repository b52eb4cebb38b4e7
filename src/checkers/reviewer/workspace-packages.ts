/**
 * The packages of a monorepo, read from what declares them (package.json `workspaces`, as a list
 * or `{ packages }`, and `pnpm-workspace.yaml`'s `packages:`), and which of them a workspace
 * selector names (`-w packages/a`, `--filter @mono/a`, `--filter './packages/*'`, `{packages/a}`).
 * Globs are the forms these files use: a trailing `*` or `**`, a `*` in a path part, `!` to leave
 * out. Read only: what the package managers would run is found without running them.
 */
import path from 'node:path';
import type { ProjectFiles } from '../../init/project-files.js';

export interface WorkspacePackage {
  /** The package's folder, relative to the project (`packages/a`). */
  dir: string;
  /** Its package.json `name`, when it has one. */
  name?: string;
  /** Its scripts. */
  scripts: Record<string, string>;
}

const MAX_PACKAGES = 500;

/** The packages the root at `dir` declares, in the order their patterns list them. */
export function workspacePackages(files: ProjectFiles, dir = '.'): WorkspacePackage[] {
  const patterns = workspacePatterns(files, dir);
  const include = patterns.filter((p) => !p.startsWith('!'));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => globRegex(p.slice(1)));
  const found = new Map<string, WorkspacePackage>();
  for (const pattern of include) {
    for (const candidate of expand(files, dir, pattern)) {
      if (found.size >= MAX_PACKAGES) break;
      const relative = path.posix.relative(dir === '.' ? '' : dir, candidate) || '.';
      if (found.has(candidate) || exclude.some((re) => re.test(relative))) continue;
      const pkg = packageJson(files, candidate);
      if (pkg) found.set(candidate, { dir: candidate, ...pkg });
    }
  }
  return [...found.values()];
}

/** The package.json of `dir`: its name and string scripts; undefined when there is none. */
export function packageJson(files: ProjectFiles, dir: string): { name?: string; scripts: Record<string, string> } | undefined {
  const text = files.read(path.posix.join(dir, 'package.json'));
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as { name?: unknown; scripts?: unknown };
    const scripts = value && typeof value.scripts === 'object' && value.scripts !== null ? (value.scripts as Record<string, unknown>) : {};
    return {
      ...(typeof value?.name === 'string' ? { name: value.name } : {}),
      scripts: Object.fromEntries(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string')),
    };
  } catch {
    return { scripts: {} };
  }
}

function workspacePatterns(files: ProjectFiles, dir: string): string[] {
  const fromJson = (() => {
    try {
      const pkg = JSON.parse(files.read(path.posix.join(dir, 'package.json')) ?? 'null') as { workspaces?: unknown } | null;
      const ws = pkg?.workspaces;
      const list = Array.isArray(ws) ? ws : (ws as { packages?: unknown } | undefined)?.packages;
      return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
    } catch {
      return [];
    }
  })();
  const yaml = files.read(path.posix.join(dir, 'pnpm-workspace.yaml')) ?? '';
  return [...fromJson, ...pnpmPatterns(yaml)].map((p) => p.replace(/^\.\//, '').replace(/\/$/, ''));
}

/** `packages:` of pnpm-workspace.yaml: its `- 'glob'` items. */
function pnpmPatterns(yaml: string): string[] {
  const out: string[] = [];
  let inside = false;
  for (const line of yaml.split('\n')) {
    if (/^packages:\s*$/.test(line)) inside = true;
    else if (/^\S/.test(line)) inside = false;
    else if (inside) {
      const item = /^\s+-\s+['"]?([^'"#]+?)['"]?\s*(?:#.*)?$/.exec(line)?.[1];
      if (item) out.push(item);
    }
  }
  return out;
}

/** The folders a pattern names under `dir`: path parts matched one by one, `**` any depth (bounded). */
function expand(files: ProjectFiles, dir: string, pattern: string): string[] {
  let current = [dir];
  for (const part of pattern.split('/').filter(Boolean)) {
    if (part === '**') {
      current = current.flatMap((d) => [d, ...descendants(files, d, 3)]);
      continue;
    }
    const re = globRegex(part);
    current = current.flatMap((d) =>
      /[*?]/.test(part)
        ? files
            .list(d)
            .filter((name) => re.test(name) && name !== 'node_modules')
            .map((name) => join(d, name))
        : [join(d, part)],
    );
  }
  return current.filter((d) => d !== dir || pattern === '.');
}

function descendants(files: ProjectFiles, dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return files
    .list(dir)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .map((name) => join(dir, name))
    .filter((d) => files.list(d).length > 0)
    .flatMap((d) => [d, ...descendants(files, d, depth - 1)]);
}

function join(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}

/** A glob as a regular expression over a name or a relative path: `*` within a part, `**` across parts. */
export function globRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped.replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`);
}

/**
 * The packages a selector names: a package name or a glob of names (`@mono/*`), a folder (`./packages/a`,
 * `packages/a`, `{packages/a}`), pnpm's `...` for dependents or dependencies (taken as the package
 * itself: what depends on what is not read here). None when it names no package.
 */
export function selectPackages(packages: readonly WorkspacePackage[], selector: string): WorkspacePackage[] {
  const bare = selector
    .replace(/^!/, '')
    .replace(/^\.\.\.(?=[^./])|\.\.\.$/g, '')
    .replace(/^\^/, '');
  const braced = /^\{(.*)\}(?:\[.*\])?$/.exec(bare)?.[1];
  const asPath = braced ?? (/^(\.|\/)/.test(bare) || (bare.includes('/') && !bare.startsWith('@')) ? bare : undefined);
  if (asPath !== undefined) {
    const re = globRegex(path.posix.normalize(asPath).replace(/\/$/, ''));
    return packages.filter((p) => re.test(p.dir));
  }
  const re = globRegex(bare);
  return packages.filter((p) => p.name !== undefined && re.test(p.name));
}
