// Preloaded with --import by bench/startup-modules.mjs: registers load-hooks.mjs and marks every
// process start (child_process, node-pty) in $STARTUP_MODULES_LOG, so the modules loaded before the
// agent's spawn are the LOAD lines above its SPAWN line.
import cp from 'node:child_process';
import fs from 'node:fs';
import { createRequire, register, syncBuiltinESMExports } from 'node:module';

const log = process.env.STARTUP_MODULES_LOG;
register(new URL('./load-hooks.mjs', import.meta.url));
const mark = (how, args) => fs.appendFileSync(log, `SPAWN ${how} ${JSON.stringify(args).slice(0, 300)}\n`);
for (const name of ['spawn', 'execFile', 'fork', 'spawnSync', 'execFileSync']) {
  const original = cp[name];
  cp[name] = function (...args) {
    mark(name, args.slice(0, 2));
    return original.apply(this, args);
  };
}
syncBuiltinESMExports();
// node-pty is CommonJS, loaded with require: its spawn is the Node proxy's agent start.
const Module = createRequire(import.meta.url)('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  const loaded = load.call(this, request, ...rest);
  if (/node-pty/.test(request) && typeof loaded?.spawn === 'function' && !loaded.spawn.marked) {
    const spawn = loaded.spawn;
    loaded.spawn = Object.assign((...args) => (mark('node-pty', args.slice(0, 2)), spawn(...args)), { marked: true });
  }
  return loaded;
};
