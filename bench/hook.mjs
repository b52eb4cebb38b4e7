/**
 * Hook latency: `ccc supervisor-hook` from process start to its decision (the
 * process has printed it and exited, as Claude Code waits for it), median of N, against
 * `node -e 0` as the floor. Cases run in alternation so machine load hits them alike.
 *
 * Cases, each only when what it needs is on this build:
 * - proxy     `--proxy`, as injected into every supervised claude: the stop goes over the private
 *             channel to a running ccc (here a channel server in the harness that allows at once,
 *             as a trivial checker would); what claude waits for at each stop of a ccc session
 * - rule      full decision with a trivial `rule` checker (config, lock, state, pipeline)
 * - reviewer  full decision with the `claude` checker, the reviewer a shell stand-in answering at once
 * - nested    CCC_SUPERVISOR_HOOK=1: the reviewer's own stop, allowed before reading stdin
 * - malformed input that is not hook JSON: parsed, explained, allowed
 */
import fs from 'node:fs';
import path from 'node:path';
import { median } from './lib/stats.mjs';
import { timeProcess } from './lib/time-process.mjs';
import { CLI, COMPARE_CLI, FIXTURES, ROOT } from './lib/variants.mjs';

function hookEnv(base, extra) {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('CCC_SUPERVISOR_') || key === 'CCC_SUPERVISED') delete env[key];
  return { ...env, ...base };
}

/** A project dir with a ccc config choosing `checkers`, and a one-line transcript. */
function project(workspace, name, checkers) {
  const dir = path.join(workspace.dir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.cccrc.json'), JSON.stringify({ supervisor: { checkers } }));
  fs.writeFileSync(path.join(dir, 'SUPERVISOR.md'), 'Benchmark: always done.\n');
  const transcript = path.join(dir, 'transcript.jsonl');
  fs.writeFileSync(transcript, JSON.stringify({ type: 'user', message: { role: 'user', content: 'benchmark task' } }) + '\n');
  return { dir, transcript };
}

function stopInput(dir, transcript, i) {
  return JSON.stringify({
    session_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    transcript_path: transcript,
    cwd: dir,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'done',
  });
}

/**
 * @returns {Promise<{ floorMs: number, cases: Record<string, { medianMs, ratio?, runs } | { unavailable: string }> }>}
 */
export async function benchHook({ runs, workspace, log }) {
  const base = { CCC_CONFIG_DIR: workspace.configDir };
  const { startStopChannel } = await import(path.join(ROOT, 'dist/stop/stop-channel.js'));
  let stopsAnswered = 0;
  const channel = await startStopChannel({
    dir: workspace.configDir,
    onStop: async () => {
      stopsAnswered += 1;
      return '';
    },
  });
  const rule = project(workspace, 'hook-rule', [{ use: 'rule', must_match: ['done'] }]);
  const reviewer = project(workspace, 'hook-reviewer', ['claude']);
  /** The cases of one build; `offset` keeps session ids distinct (a repeated id would count iterations). */
  const casesOf = (cli, offset) => ({
    proxy: (i) =>
      timeProcess([cli, 'supervisor-hook', '--proxy'], {
        env: hookEnv(base, { CCC_HOOK_SOCKET: channel.socketPath, CCC_HOOK_TOKEN: channel.token, CCC_SUPERVISED: String(process.pid) }),
        cwd: rule.dir,
        input: stopInput(rule.dir, rule.transcript, offset + 2000 + i),
      }),
    rule: (i) => timeProcess([cli, 'supervisor-hook'], { env: hookEnv(base), cwd: rule.dir, input: stopInput(rule.dir, rule.transcript, offset + i) }),
    reviewer: (i) =>
      timeProcess([cli, 'supervisor-hook'], {
        env: hookEnv(base, { CCC_CLAUDE: path.join(FIXTURES, 'reviewer.sh'), CCC_SUPERVISOR_PROMPT_PATH: path.join(reviewer.dir, 'SUPERVISOR.md') }),
        cwd: reviewer.dir,
        input: stopInput(reviewer.dir, reviewer.transcript, offset + 1000 + i),
      }),
    nested: () => timeProcess([cli, 'supervisor-hook'], { env: hookEnv(base, { CCC_SUPERVISOR_HOOK: '1' }), cwd: workspace.dir, input: '{}' }),
    malformed: () => timeProcess([cli, 'supervisor-hook'], { env: hookEnv(base), cwd: workspace.dir, input: 'this is not hook JSON' }),
  });
  const cases = {
    floor: () => timeProcess(['-e', '0'], { env: hookEnv(base), cwd: workspace.dir }),
    ...casesOf(CLI, 0),
  };
  // BENCH_COMPARE_CLI: the same cases for the other build, in the same alternation.
  if (COMPARE_CLI) for (const [name, run] of Object.entries(casesOf(COMPARE_CLI, 5000))) cases[`${name} (compare build)`] = run;
  // What a correct decision looks like: exit 0, nothing on stdout (allow), and for the full
  // decisions no error on stderr (a checker that failed also allows, which must not pass as success).
  const validity = {
    floor: (r) => r.code === 0,
    proxy: (r) => r.code === 0 && r.stdout.trim() === '' && r.stderr.trim() === '',
    rule: (r) => r.code === 0 && r.stdout.trim() === '' && r.stderr.trim() === '',
    reviewer: (r) => r.code === 0 && r.stdout.trim() === '' && r.stderr.trim() === '',
    nested: (r) => r.code === 0 && r.stdout === '',
    malformed: (r) => r.code === 0 && r.stdout === '' && /stop allowed/.test(r.stderr),
  };
  const valid = (name, r) => validity[name.split(' ')[0]](r);
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const unavailable = {};
  try {
    for (let i = 0; i < runs + 1; i++) {
      for (const [name, run] of Object.entries(cases)) {
        if (unavailable[name]) continue;
        const r = await run(i);
        if (!valid(name, r)) {
          unavailable[name] = `exit ${r.code}; stdout ${JSON.stringify(r.stdout.slice(0, 300))}; stderr ${JSON.stringify(r.stderr.slice(0, 300))}`;
          continue;
        }
        if (i > 0) times[name].push(r.ms); // the first round only warms the file cache
      }
    }
  } finally {
    await channel.close();
  }
  // Every proxy run must have reached the channel: an allow without asking would be too fast.
  const proxyRuns = Object.keys(cases).filter((name) => name.startsWith('proxy') && !unavailable[name]).length * (runs + 1);
  if (stopsAnswered !== proxyRuns)
    for (const name of Object.keys(cases)) if (name.startsWith('proxy')) unavailable[name] = `${stopsAnswered} of ${proxyRuns} stops reached the stop channel`;
  log(`hook: ${runs} runs per case`);
  const floorMs = median(times.floor);
  const out = {};
  for (const name of Object.keys(cases)) {
    if (name === 'floor') continue;
    if (unavailable[name]) out[name] = { unavailable: unavailable[name] };
    else out[name] = { medianMs: median(times[name]), ratio: median(times[name]) / floorMs, runs: times[name].map((x) => Math.round(x * 10) / 10) };
  }
  return { floorMs, floorRuns: times.floor.map((x) => Math.round(x * 10) / 10), cases: out };
}
