/**
 * Compiling and checking ccc's two native helpers: `ccc-relay` (native/relay.c, the byte path)
 * and `ccc-lifeline` (native/lifeline.c, ends ccc's children when ccc dies). The build of the
 * package (scripts/build-relay.mjs) and the build on first use (native-helpers.ts) both go
 * through here, so both compile the same way.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { childEndText } from '../process/child-end.js';

export const HELPERS = ['ccc-relay', 'ccc-lifeline'] as const;
export type HelperName = (typeof HELPERS)[number];

/** The C files a helper is built from: the first is compiled, the others are what it includes. */
export function helperSources(nativeDir: string, name: HelperName): string[] {
  const files = name === 'ccc-relay' ? ['relay.c', 'byte-path-rules.h'] : ['lifeline.c'];
  return files.map((file) => path.join(nativeDir, file));
}

/** `$CC`, else `cc`: what the user's toolchain calls its C compiler. */
export function compilerCommand(env: NodeJS.ProcessEnv): string {
  return env.CC || 'cc';
}

/**
 * Compiles helper `name` into `target`, checks that it runs, and only then puts it there (a
 * temporary name, then a rename: two ccc building at once each put a whole, working binary in
 * place, and nothing ever runs a half-written one). Returns why it failed.
 */
export function compileHelper(options: {
  name: HelperName;
  source: string;
  target: string;
  compiler: string;
}): { ok: true; warnings: string } | { ok: false; reason: string } {
  const temporary = `${options.target}.${process.pid}.tmp`;
  const result = spawnSync(options.compiler, ['-O2', '-std=c11', '-Wall', '-Wextra', '-o', temporary, options.source], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.error || result.status !== 0) {
    fs.rmSync(temporary, { force: true });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0];
    const failure =
      result.error && 'code' in result.error && result.error.code === 'ENOENT'
        ? 'not found'
        : (result.error?.message ?? `${childEndText({ exitCode: result.status, signal: result.signal })}${output ? `: ${output}` : ''}`);
    return { ok: false, reason: `${options.compiler}: ${failure}` };
  }
  const probe = probeHelper(temporary, options.name);
  if (!probe.ok) {
    fs.rmSync(temporary, { force: true });
    return probe;
  }
  fs.renameSync(temporary, options.target);
  return { ok: true, warnings: `${result.stdout}${result.stderr}` };
}

/**
 * Whether a helper binary runs here: both print their usage and exit 125 when given nothing to
 * run. A binary for another C library or an older glibc fails before that (the loader's exit 127,
 * or ENOENT for a missing loader).
 */
export function probeHelper(file: string, name: HelperName): { ok: true } | { ok: false; reason: string } {
  const result = spawnSync(file, [], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  if (result.status === 125 && result.stderr.startsWith(`usage: ${name} `)) return { ok: true };
  const said = result.error ? result.error.message : (result.stderr.trim().split('\n')[0] ?? '') || `exit ${result.status ?? result.signal}`;
  return { ok: false, reason: `${file} does not run here (${said})` };
}
