/**
 * Where the time between a stop and the reviewer's first request goes, stage by stage, with the
 * real claude against the scripted model server. Not part of `npm run bench`: run it by hand
 * (`node bench/review-breakdown.mjs [runs]`) when the review start-up target is missed.
 *
 * Stamps: a `--require` preload writes when Node starts running the hook's own code; a wrapper
 * around claude (`CCC_CLAUDE`) writes when the reviewer is spawned; the model server when the
 * first request arrives. Cases alternate, medians:
 * - plain: `claude -p hello`, spawn → first request (the yardstick);
 * - reviewer alone: claude with the reviewer's own arguments (fork, resume, guard settings) and a
 *   review message on stdin, spawn → first request: claude's own cost of a resumed fork;
 * - node: `node -e 0`, and the `--proxy` hook asking a channel that answers at once: spawn → its
 *   request on the channel;
 * - standalone hook: spawn → Node running (preload) → reviewer spawned (wrapper) → first request.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createJiti } from 'jiti';
import { median } from './lib/stats.mjs';
import { CLI, ROOT } from './lib/variants.mjs';
import { firstRequestAfter, measureShare, run, stopInput } from './review.mjs';

const runs = Number(process.argv[2] ?? 8);
const jiti = createJiti(import.meta.url);
const support = (name) => jiti.import(path.join(ROOT, 'test/support', name));
const deps = {
  ...(await support('model-server.ts')),
  ...(await support('claude-env.ts')),
  ...(await support('prefix-share.ts')),
  ...(await import(path.join(ROOT, 'dist/starter/supervisor-template.js'))),
};
const { reviewerLaunch } = await import(path.join(ROOT, 'dist/checkers/reviewer/reviewer-launch.js'));
const { server, world, sessionId } = await measureShare(deps, []);
const stamps = path.join(world.root, 'stamps.txt');
const preload = path.join(world.root, 'stamp.cjs');
fs.writeFileSync(preload, `require('fs').appendFileSync(${JSON.stringify(stamps)}, 'node ' + (performance.timeOrigin + performance.now()) + '\\n');\n`);
const wrapper = path.join(world.root, 'claude-wrapper.sh');
fs.writeFileSync(wrapper, `#!/bin/sh\nunset NODE_OPTIONS\necho "claude $(date +%s%N) $*" >> '${stamps}'\nexec '${deps.claudeBin}' "$@"\n`, { mode: 0o755 });
const readStamps = () => (fs.existsSync(stamps) ? fs.readFileSync(stamps, 'utf8').split('\n').filter(Boolean) : []);
const clearStamps = () => fs.rmSync(stamps, { force: true });
const epochNow = () => performance.timeOrigin + performance.now();

const stop = stopInput(world, sessionId);
const launch = reviewerLaunch({ fork: sessionId, claudeArgs: [], cwd: world.cwd, env: world.env, policy: { allow: [], commands: [] } });

// A stop channel that answers at once: when the hook's request arrives.
const sockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-bd-'));
const socketPath = path.join(sockDir, 's.sock');
let requestAt;
const channel = net.createServer((socket) => {
  socket.once('data', () => {
    requestAt ??= epochNow();
    socket.end(JSON.stringify({ output: '' }) + '\n');
  });
});
await new Promise((resolve) => channel.listen(socketPath, resolve));

const cases = {
  plain: async () => {
    const t0 = performance.now();
    const r = await run(deps.claudeBin, ['-p', 'hello', '--output-format', 'stream-json', '--verbose'], { env: world.env, cwd: world.cwd });
    return r.code === 0 ? { firstRequest: firstRequestAfter(server, t0) } : undefined;
  },
  reviewerAlone: async () => {
    const t0 = performance.now();
    const r = await run(deps.claudeBin, launch.args, { env: launch.env, cwd: world.cwd, input: 'You are reviewing the work above. Answer complete.' });
    return r.code === 0 ? { firstRequest: firstRequestAfter(server, t0) } : undefined;
  },
  nodeBare: async () => {
    const t0 = epochNow();
    await run(process.execPath, ['-e', '0'], { env: world.env, cwd: world.cwd });
    return { exit: epochNow() - t0 };
  },
  proxyNode: async () => {
    requestAt = undefined;
    const t0 = epochNow();
    const env = { ...world.env, CCC_HOOK_SOCKET: socketPath, CCC_HOOK_TOKEN: 'x' };
    await run(process.execPath, [CLI, 'supervisor-hook', '--proxy'], { env, cwd: world.cwd, input: stop });
    return { request: requestAt - t0, exit: epochNow() - t0 };
  },
  standalone: async () => {
    // A new stop of the session each run, as in the bench: without its state the replayed stop is not the same stop again.
    fs.rmSync(path.join(world.claudeDir, 'ccc', `supervisor-${sessionId}.json`), { force: true });
    clearStamps();
    const t0 = epochNow();
    const t0perf = performance.now();
    const env = { ...world.env, CCC_CLAUDE: wrapper, NODE_OPTIONS: `--require ${preload}` };
    const r = await run(process.execPath, [CLI, 'supervisor-hook'], { env, cwd: world.cwd, input: stop });
    if (r.code !== 0) return undefined;
    const lines = readStamps();
    const nodeAt = Number(lines.find((l) => l.startsWith('node '))?.split(' ')[1]);
    const claudeAt = Number(lines.find((l) => l.startsWith('claude ') && l.includes('--fork-session'))?.split(' ')[1]) / 1e6;
    const first = firstRequestAfter(server, t0perf);
    return { nodeRunning: nodeAt - t0, reviewerSpawned: claudeAt - t0, firstRequest: first, reviewerSpawnToRequest: first - (claudeAt - t0) };
  },
};

// BENCH_CASES=plain,standalone: a subset. BENCH_UNBUNDLED=1 adds the standalone hook without its bundle.
if (process.env.BENCH_UNBUNDLED) {
  cases.standaloneUnbundled = async () => {
    fs.renameSync(path.join(ROOT, 'dist/hook'), path.join(ROOT, 'dist/hook.off'));
    try {
      return await cases.standalone();
    } finally {
      fs.renameSync(path.join(ROOT, 'dist/hook.off'), path.join(ROOT, 'dist/hook'));
    }
  };
}
const wanted = process.env.BENCH_CASES?.split(',');
for (const name of Object.keys(cases))
  if (wanted && !wanted.includes(name) && !(name === 'standaloneUnbundled' && wanted.includes('standalone'))) delete cases[name];
const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const order = Object.keys(cases);
for (let i = 0; i < runs + 1; i++) {
  for (const name of i % 2 === 0 ? order : [...order].reverse()) {
    const r = await cases[name]();
    if (!r) throw new Error(`${name} failed`);
    if (i > 0) results[name].push(r);
  }
}
const summary = {};
for (const [name, list] of Object.entries(results)) {
  summary[name] = Object.fromEntries(Object.keys(list[0]).map((k) => [k, Math.round(median(list.map((r) => r[k])))]));
}
console.log(
  JSON.stringify(
    {
      load: os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' '),
      runs,
      summary,
      ...(process.env.BENCH_RAW ? { raw: results } : {}),
    },
    null,
    1,
  ),
);
channel.close();
await server.close();
world.cleanup();
fs.rmSync(sockDir, { recursive: true, force: true });
