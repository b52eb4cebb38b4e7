// Module hooks for bench/startup-modules.mjs: each module file the ESM loader loads, one line in
// $STARTUP_MODULES_LOG, before it is evaluated.
import fs from 'node:fs';

export async function load(url, context, next) {
  if (url.startsWith('file:')) fs.appendFileSync(process.env.STARTUP_MODULES_LOG, `LOAD ${url}\n`);
  return next(url, context);
}
