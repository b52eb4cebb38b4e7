#!/usr/bin/env node
/**
 * The installed `ccc` (package.json "bin"). A supervised session in a terminal starts ccc behind
 * its front (front.cts) as the first thing this process does: CommonJS with Node's modules and
 * three small ones, so ccc's own start is not held up by an ES module loader in the front, whose
 * only work is to wait. Everything else is main.js, in this process; `process.argv[1]` stays the
 * path the user ran (`ccc hook install` writes that launcher into settings.json).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isSupervisedLaunch } from './supervised-launch.cjs';
import { useCompileCache } from '../process/compile-cache.cjs';
import { guardStdioReset } from '../process/stdio-reset.cjs';
import { runFront, wantsFront } from './front.cjs';

const argv = process.argv.slice(2);
const main = path.join(__dirname, 'main.js');

if (wantsFront(isSupervisedLaunch(argv), process.env)) {
  // A terminal that is gone when the front exits must not end it in Node's abort (stdio-reset.cts).
  guardStdioReset();
  void runFront(main, argv);
} else {
  // From here on main.js and every module it loads come from V8's code cache once warm.
  useCompileCache();
  void import(pathToFileURL(main).href);
}
