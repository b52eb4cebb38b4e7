/**
 * On its own (`node bench/guard-probe.mjs [runs]` after `npm run build`, not in `npm run bench`):
 * how often an unguarded reviewer's first request reaches the model. Headless `ccc --supervisor
 * -p` runs whose claude is wrapped with `--bare` (the reviewer's guard hooks are dropped); the
 * scripted model server counts the review requests that arrive. The checker now sees the guard
 * missing in a claude run that reaches no model (src/checkers/reviewer/guard-check.ts) and starts
 * no reviewer, so none should; a build from before that check kills the review at its init frame,
 * and what arrives before the kill is the race this measured. `BENCH_COMPARE_CLI=<other build>/dist/cli/main.js` runs that build too,
 * alternating; `BENCH_GUARD_LOAD=2` adds that many busy loops beside the runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import { CLI, COMPARE_CLI, ROOT } from './lib/variants.mjs';

const jiti = createJiti(import.meta.url);
const support = (name) => jiti.import(path.join(ROOT, 'test/support', name));
const runs = Number(process.argv[2] ?? 20);

const { startModelServer } = await support('model-server.ts');
const { makeClaudeWorld, claudeBin } = await support('claude-env.ts');
const { runProcess } = await support('run-process.ts');

const loads = Array.from({ length: Number(process.env.BENCH_GUARD_LOAD ?? 0) }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));

/** One unguarded run of `cli`: the review requests that reached the model server, and ccc's exit. */
async function unguardedRun(cli) {
  const server = await startModelServer((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'never acted on' } } : { text: 'All done.' }));
  const world = makeClaudeWorld({ modelUrl: server.url });
  try {
    fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), '# rules\nCheck the work.');
    const wrapper = path.join(world.root, 'claude-bare');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${claudeBin}' --bare "$@"\n`, { mode: 0o755 });
    const run = await runProcess(process.execPath, [cli, '--supervisor', '-p', 'do it'], {
      cwd: world.cwd,
      env: { ...world.env, CCC_CLAUDE: wrapper },
      timeoutMs: 120_000,
    });
    // Every connection gone: whatever the killed reviewer completed is recorded.
    while (server.connections() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    return { reached: server.byKind('review').length, code: run.code };
  } finally {
    await server.close();
    world.cleanup();
  }
}

const builds = [{ label: 'this build', cli: CLI, reached: 0, codes: new Set() }];
if (COMPARE_CLI) builds.push({ label: 'compare build', cli: COMPARE_CLI, reached: 0, codes: new Set() });
try {
  for (let i = 0; i < runs; i++) {
    for (const build of builds) {
      const { reached, code } = await unguardedRun(build.cli);
      build.reached += reached > 0 ? 1 : 0;
      build.codes.add(code);
    }
  }
} finally {
  for (const load of loads) load.kill('SIGKILL');
}
for (const build of builds) {
  console.log(
    `${build.label}: the unguarded review's request reached the model in ${build.reached} of ${runs} runs (exit codes: ${[...build.codes].join(', ')})`,
  );
}
