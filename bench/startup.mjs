/**
 * Start-up: what a user waits for before the prompt, each case against its own floor in
 * the same run, the cases alternating run by run so machine load hits them alike.
 *
 * - first byte  the stand-in agent (fixtures/first-byte-agent.sh prints as soon as it runs) in a
 *               pty, directly and under `ccc --supervisor`: spawn to its first byte on the terminal;
 *               beside them two floors with no work in them: one Node start before the agent's
 *               spawn (fixtures/node-spawn.cjs), and two in a row, a Node front starting a Node
 *               child as ccc's front starts ccc (fixtures/node-front.cjs)
 * - prompt      the real claude in a pty, bare and under `ccc --supervisor`, with the scripted model
 *               server and a private HOME (test/support/claude-env.ts): spawn until the TUI's `❯` is
 *               on the screen (read through a headless terminal emulator); ccc's remembered claude
 *               version carried from the warm-up round into each HOME, as a user's later runs have it
 * - wall        `ccc --version`, `ccc --help`, `ccc config --json` (also in a project with a
 *               `ccc.config.ts`: `config-ts`) against `node -e 0`, spawn to exit
 *               (`--version`: the warm-up round leaves claude's version remembered in the workspace's
 *               config dir, so the timed runs cost what a user's second and later runs cost)
 *
 * ccc is started as a user starts it, through the installed `ccc` (dist/cli/bin.cjs). With
 * BENCH_COMPARE_CLI, the other build's ccc cases run in the same alternation (a build from before
 * bin.cjs: its dist/cli/main.js, then the installed `ccc`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import { PtyDriver, READY } from './lib/pty-driver.mjs';
import { startOnScreen } from './lib/screen-wait.mjs';
import { median } from './lib/stats.mjs';
import { timeProcess } from './lib/time-process.mjs';
import { BIN, COMPARE_CLI, FIXTURES, ROOT, variantSpec } from './lib/variants.mjs';

const ms = (from, to) => Number(to - from) / 1e6;
const round = (xs) => xs.map((x) => Math.round(x * 10) / 10);

/** Runs every case `runs + 1` times in alternation (the first round only warms caches); ms per case. */
async function alternate(cases, runs, onFailure) {
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const unavailable = {};
  for (let i = 0; i < runs + 1; i++) {
    for (const [name, run] of Object.entries(cases)) {
      if (unavailable[name]) continue;
      try {
        const t = await run(i);
        if (i > 0) times[name].push(t);
      } catch (error) {
        unavailable[name] = error.message.slice(0, 600);
        onFailure?.(name, error);
      }
    }
  }
  const out = {};
  for (const name of Object.keys(cases))
    out[name] = unavailable[name] ? { unavailable: unavailable[name] } : { medianMs: median(times[name]), runs: round(times[name]) };
  return out;
}

async function firstByte({ runs, workspace }) {
  const agent = path.join(FIXTURES, 'first-byte-agent.sh');
  const once = (variant) => async () => {
    const driver = new PtyDriver(variantSpec(variant, agent, workspace));
    const t0 = process.hrtime.bigint();
    try {
      return ms(t0, await driver.waitFor(READY, 30_000, variant));
    } finally {
      await driver.stop();
    }
  };
  const cases = { direct: once('direct'), 'node-spawn': once('node-spawn'), 'node-front': once('node-front'), 'ccc-sup': once('ccc-sup') };
  if (COMPARE_CLI) cases['ccc-sup-cmp'] = once('ccc-sup-cmp');
  return alternate(cases, runs);
}

async function promptTime({ runs, log }) {
  const jiti = createJiti(import.meta.url);
  const { startModelServer } = await jiti.import(path.join(ROOT, 'test/support/model-server.ts'));
  const { makeClaudeWorld, claudeBin } = await jiti.import(path.join(ROOT, 'test/support/claude-env.ts'));
  if (!fs.existsSync(claudeBin)) {
    const unavailable = `${claudeBin} is missing (npm ci installs it)`;
    return { claude: { unavailable }, 'ccc-sup': { unavailable } };
  }
  const server = await startModelServer(() => ({ text: 'ok' }));
  // What ccc remembers between a user's runs: claude's version (src/claude/claude-version.ts), kept
  // from the warm-up round into each fresh HOME, so the timed runs cost what a second and later run
  // costs (ccc asks `claude --version` only when claude changed), as for the `--version` case.
  let remembered;
  const once = (command) => async () => {
    // A fresh HOME per run: claude writes to ~/.claude.json on every start.
    const world = makeClaudeWorld({ modelUrl: server.url });
    const versionFile = path.join(world.home, '.claude', 'ccc', 'claude-version.json');
    if (remembered) {
      fs.mkdirSync(path.dirname(versionFile), { recursive: true });
      fs.writeFileSync(versionFile, remembered);
    }
    fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), 'Benchmark: the prompt is all that is measured.\n');
    const run = startOnScreen({ ...command, cwd: world.cwd, env: world.env }, '❯', 60_000);
    try {
      return ms(run.started, await run.seen);
    } finally {
      await run.stop();
      if (!remembered && fs.existsSync(versionFile)) remembered = fs.readFileSync(versionFile);
      else if (!remembered && command.file === process.execPath) log('prompt: ccc remembered no claude version, so each run asks claude');
      world.cleanup();
    }
  };
  const cases = {
    claude: once({ file: claudeBin, args: [] }),
    'ccc-sup': once({ file: process.execPath, args: [BIN, '--supervisor'] }),
  };
  if (COMPARE_CLI) cases['ccc-sup-cmp'] = once({ file: process.execPath, args: [COMPARE_CLI, '--supervisor'] });
  try {
    return await alternate(cases, runs, (name, error) => log(`prompt ${name}: ${error.message.split('\n')[0]}`));
  } finally {
    await server.close();
  }
}

async function wallTimes({ runs, workspace }) {
  const env = { ...process.env, CCC_CONFIG_DIR: workspace.configDir, CCC_CLAUDE: path.join(FIXTURES, 'version-agent.sh') };
  for (const key of Object.keys(env)) if (key.startsWith('CCC_SUPERVISOR_') || key === 'CCC_SUPERVISED') delete env[key];
  // A ccc case must exit 0 with something on stdout (a usage error would be fast for nothing).
  const timed =
    (args, { prints = true, cwd = workspace.dir } = {}) =>
    async () => {
      const r = await timeProcess(args, { env, cwd });
      if (r.code !== 0 || (prints && r.stdout.trim() === ''))
        throw new Error(`exit ${r.code}; stdout ${JSON.stringify(r.stdout.slice(0, 200))}; stderr ${JSON.stringify(r.stderr.slice(0, 300))}`);
      return r.ms;
    };
  // A project with a ccc.config.ts: the file runs (in its own thread, src/config/load-guard.ts) on every launch's way to the spawn.
  const tsProject = path.join(workspace.dir, 'ts-config-project');
  fs.mkdirSync(tsProject, { recursive: true });
  fs.writeFileSync(path.join(tsProject, 'ccc.config.ts'), 'const iterations: number = 5;\nexport default { supervisor: { max_iterations: iterations } };\n');
  const casesOf = (cli, suffix) => ({
    [`version${suffix}`]: timed([cli, '--version']),
    [`help${suffix}`]: timed([cli, '--help']),
    [`config${suffix}`]: timed([cli, 'config', '--json']),
    [`config-ts${suffix}`]: timed([cli, 'config', '--json'], { cwd: tsProject }),
  });
  const cases = { floor: timed(['-e', '0'], { prints: false }), ...casesOf(BIN, '') };
  if (COMPARE_CLI) Object.assign(cases, casesOf(COMPARE_CLI, '-cmp'));
  return alternate(cases, runs);
}

/**
 * @returns {Promise<{ firstByte, prompt, wall }>} each a map of case → { medianMs, runs } | { unavailable }
 */
export async function benchStartup({ runs, promptRuns, workspace, log }) {
  log(`start-up: wall times (${runs} runs per case)…`);
  const wall = await wallTimes({ runs, workspace });
  log(`start-up: first byte of the stand-in agent (${runs} runs per case)…`);
  const first = await firstByte({ runs, workspace });
  log(`start-up: time to the real claude's prompt (${promptRuns} runs per case)…`);
  const prompt = await promptTime({ runs: promptRuns, log });
  return { firstByte: first, prompt, wall };
}
