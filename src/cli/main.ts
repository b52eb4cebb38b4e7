#!/usr/bin/env node
/**
 * ccc's main module, which the installed `ccc` (bin.cts) runs. `supervisor-hook` takes a fast path (no CLI parser, no RxJS) because
 * Claude Code waits for it at every stop, and so does a bare `ccc --version` (the parser and
 * the command table were a third of its time); everything else goes through the command table.
 * A supervised session in a terminal runs behind a front (front.cts): the process the shell waits
 * for ends only after the terminal was given back, even when ccc is killed with kill -9. Every
 * other path first checks the open-file limit: below what a session needs, one line with the fix,
 * not the stack of a module loader that ran out.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ExitCode } from '../errors.js';
import { descriptorShortage, isOutOfDescriptors, tooFewDescriptorsMessage } from '../process/open-file-limit.js';

// The CommonJS modules the installed `ccc` (bin.cts) shares, required: an import of CommonJS would
// start Node's parser of CommonJS export names first, about 20 ms.
const require = createRequire(import.meta.url);
const { isSupervisedLaunch } = require('./supervised-launch.cjs') as typeof import('./supervised-launch.cjs');
const { runFront, wantsFront } = require('./front.cjs') as typeof import('./front.cjs');
const { guardStdioReset } = require('../process/stdio-reset.cjs') as typeof import('../process/stdio-reset.cjs');
const { useCompileCache } = require('../process/compile-cache.cjs') as typeof import('../process/compile-cache.cjs');

const argv = process.argv.slice(2);
// Every module loaded from here on (all but the few above) comes from V8's code cache once warm.
useCompileCache();
// A terminal that is gone when ccc exits must not end it in Node's abort (stdio-reset.cts).
guardStdioReset();

if (argv[0] === 'supervisor-hook') {
  const { runSupervisorHookCommand } = (await import(bundledOr('./supervisor-hook.js', '../hook/supervisor-hook.js'))) as typeof import('./supervisor-hook.js');
  process.exitCode = await runSupervisorHookCommand(argv.slice(1));
} else if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const [{ versionText }, { exitQuietlyOnEpipe }] = await Promise.all([import('./version.js'), import('./quiet-epipe.js')]);
  exitQuietlyOnEpipe();
  process.stdout.write(await versionText({ cwd: process.cwd(), env: process.env }));
} else {
  await runUnderLimit(descriptorShortage());
}

/** Refuses a run the open-file limit could not hold (src/process/open-file-limit.ts), else runs it. */
async function runUnderLimit(shortage: string | undefined): Promise<void> {
  if (shortage !== undefined) {
    process.stderr.write(shortage);
    process.exitCode = ExitCode.usage;
    return;
  }
  try {
    await run();
  } catch (error) {
    // Where the limit could not be read, Node's module loader is the first to run out: its EMFILE
    // would end ccc with a stack of the loader's frames, not the fix.
    if (!isOutOfDescriptors(error)) throw error;
    process.stderr.write(tooFewDescriptorsMessage(undefined));
    process.exit(ExitCode.usage);
  }
}

async function run(): Promise<void> {
  if (wantsFront(isSupervisedLaunch(argv), process.env)) return runFront(process.argv[1]!, argv);
  const cli = (await import(bundledOr('./run-cli.js', '../launch/run-cli.js'))) as typeof import('./run-cli.js');
  // Taken by the run's own copy of front-link.js (the bundle's, when there), the one the relay's spawn reads.
  if (process.env.CCC_FRONT_FD !== undefined) cli.adoptFront();
  const code = await cli.runCli(argv);
  // A supervised session leaves stdin, timers and sockets behind by nature; its exit code is final.
  if (isSupervisedLaunch(argv)) process.exit(code);
  process.exitCode = code;
}

/**
 * The Stop hook's code and the rest of ccc behind run-cli.ts, each bundled into chunks by `npm run
 * build` (scripts/bundle-entries.mjs): Node loads them in about half the time of ccc's modules one
 * by one. Without a bundle (a build without esbuild), or with one older than the modules (`tsc`
 * run alone after a build), the modules themselves: a stale bundle would run other code than the
 * rest of ccc.
 */
function bundledOr(modules: string, bundle: string): string {
  const bundled = new URL(bundle, import.meta.url);
  const bundleTime = statSync(bundled, { throwIfNoEntry: false })?.mtimeMs;
  const modulesTime = statSync(new URL(modules, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return bundleTime !== undefined && bundleTime >= modulesTime ? bundled.href : modules;
}
