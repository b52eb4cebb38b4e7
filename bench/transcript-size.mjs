/**
 * The transcript-size series: what ccc adds to a stop as the session's transcript grows. With the
 * real claude against the scripted model server, for each size a real session (`claude -p`) whose
 * transcript is grown to that size by history written before it (tool calls and results, assistant
 * text, no typed prompt: the review request stays the same size). Each measured stop follows a
 * new assistant line, as a real one does, and the session's first stop (which reads the whole
 * transcript once and keeps where it stopped) is not measured: the series is the stop a user
 * waits for at every turn of a long session.
 *
 * - ccc: `ccc supervisor-hook` (the standalone hook) spawned with the stop → the reviewer's first
 *   request at the model server; and ccc's own part of it, spawned → the reviewer spawned (a
 *   wrapper around claude writes the time), which claude's start-up, the larger and noisier part
 *   on a loaded machine, does not blur;
 * - plain: `claude -p --resume <id> --fork-session --no-session-persistence` spawned → its first
 *   request (claude reads the same transcript, so its own cost of a size is in both; without
 *   persistence, as ccc's reviewer runs, since a persisted fork first writes the whole history
 *   anew, seconds at 150 MiB);
 * - with BENCH_COMPARE_CLI, the other build's hook on a copy of the session (its own session state);
 * - with BENCH_TRANSCRIPT_REVIEWER_ARGS=1, plain claude with the arguments ccc's reviewer had
 *   (`--settings` with its hooks, `--include-hook-events`): claude's own cost of those.
 *
 * Cases alternate, medians; ccc's added time is ccc − plain, per size.
 *
 * `benchStopReading` isolates the part that depended on the size: a stop's reading of the
 * transcript in one process (dist/loop/stop-context.js, the standalone hook's readings), after
 * one appended line, against one reading of the whole file (what every stop did before).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import { median } from './lib/stats.mjs';
import { generateTranscript } from './lib/transcript-gen.mjs';
import { CLI, COMPARE_CLI, ROOT } from './lib/variants.mjs';
import { firstRequestAfter, run } from './review.mjs';

const MiB = 1024 * 1024;
const jiti = createJiti(import.meta.url);
const support = (name) => jiti.import(path.join(ROOT, 'test/support', name));

/** A real session's transcript grown to `mb` MiB by history before it; returns where it is and how to add a turn. */
async function sessionOfSize({ claudeBin, world }, mb) {
  const r = await run(claudeBin, ['-p', 'write the parser', '--output-format', 'stream-json', '--verbose'], { env: world.env, cwd: world.cwd });
  if (r.code !== 0) throw new Error(`claude -p exited ${r.code}: ${r.stderr.slice(-300)}`);
  const sessionId = r.stdout
    .split('\n')
    .map((l) => (l.startsWith('{') ? JSON.parse(l) : {}))
    .find((f) => f.type === 'result')?.session_id;
  const dir = path.join(world.claudeDir, 'projects', world.cwd.replace(/[^A-Za-z0-9]/g, '-'));
  const transcript = path.join(dir, `${sessionId}.jsonl`);
  const real = fs.readFileSync(transcript);
  const grown = `${transcript}.grown`;
  generateTranscript(grown, Math.max(0, mb * MiB - real.length), { prompts: false, sessionId });
  fs.appendFileSync(grown, real);
  fs.renameSync(grown, transcript);
  const last = real
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.type === 'assistant')
    .at(-1);
  return { sessionId, transcript, dir, turn: turnWriter(last) };
}

/** Appends an assistant line that continues the conversation, as the turn before a stop does. */
function turnWriter(last) {
  let parent = last.uuid;
  let n = 0;
  return (file) => {
    const uuid = randomUUID();
    const line = { ...last, uuid, parentUuid: parent, timestamp: new Date().toISOString(), message: { ...last.message, id: `msg_bench_${n++}` } };
    parent = uuid;
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
}

function stopInput(world, session) {
  return JSON.stringify({
    session_id: session.sessionId,
    transcript_path: session.transcript,
    cwd: world.cwd,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'Done.',
    background_tasks: [],
  });
}

/** The forks each case leaves (the reviewer's, the plain fork's): gone, so the disk does not fill. */
function removeForks(session, keep) {
  for (const name of fs.readdirSync(session.dir))
    if (name.endsWith('.jsonl') && !keep.includes(path.join(session.dir, name))) fs.rmSync(path.join(session.dir, name), { force: true });
}

/** A stop's reading after one new line, kept place from the session state, against a whole reading; ms, medians. */
export async function benchStopReading({ sizesMb, runs }) {
  const { readContext } = await import(path.join(ROOT, 'dist/loop/stop-context.js'));
  const { SessionStateReadings } = await import(path.join(ROOT, 'dist/loop/transcript-readings.js'));
  const { updateSessionState } = await import(path.join(ROOT, 'dist/state/session-state.js'));
  const { readTranscript } = await import(path.join(ROOT, 'dist/frames/transcript.js'));
  const logger = { info() {}, warn() {}, error() {}, debug() {} };
  const out = {};
  for (const mb of sizesMb) {
    const dir = fs.mkdtempSync(path.join(ROOT, 'bench', '.reading-'));
    try {
      const file = path.join(dir, 'session.jsonl');
      generateTranscript(file, mb * MiB, { prompts: false });
      const line = (i) => `${JSON.stringify({ type: 'assistant', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: 'done' }] } })}\n`;
      fs.appendFileSync(file, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'task' } })}\n${line(0)}`);
      const stop = { sessionId: 'bench-reading', transcriptPath: file, cwd: dir, stopHookActive: false, backgroundTasks: [], raw: {} };
      const readOnce = async () => {
        const t0 = performance.now();
        const context = await readContext(stop, { configDir: dir, logger, env: {}, transcripts: new SessionStateReadings(dir, logger, 20) });
        const ms = performance.now() - t0;
        await updateSessionState(dir, stop.sessionId, (s) => ({ ...s, transcript_frames: context.frames }));
        return ms;
      };
      const first = await readOnce();
      const stops = [];
      const whole = [];
      for (let i = 1; i <= runs; i++) {
        fs.appendFileSync(file, line(i));
        stops.push(await readOnce());
        const t0 = performance.now();
        await readTranscript(file);
        whole.push(performance.now() - t0);
      }
      const round = (x) => Math.round(x * 10) / 10;
      out[mb] = {
        bytes: fs.statSync(file).size,
        firstStopMs: round(first),
        stopMs: round(median(stops)),
        wholeReadMs: round(median(whole)),
        stopsMs: stops.map(round),
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

export async function benchTranscriptSize({ sizesMb, runs, reviewerArgs = false, log }) {
  const deps = { ...(await support('model-server.ts')), ...(await support('claude-env.ts')) };
  const { supervisorTemplate } = await import(path.join(ROOT, 'dist/starter/supervisor-template.js'));
  const server = await deps.startModelServer((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'verified' } } : { text: 'Done.' }));
  const world = deps.makeClaudeWorld({ modelUrl: server.url, env: { CCC_SUPERVISOR_MAX_ITERATIONS: '100000' } });
  fs.writeFileSync(path.join(world.cwd, 'SUPERVISOR.md'), supervisorTemplate('[TASK_COMPLETED]'));
  // The reviewer's claude, spawned through a wrapper that writes when (ns since the epoch).
  const stamps = path.join(world.root, 'reviewer-spawned');
  const wrapper = path.join(world.root, 'claude-wrapper.sh');
  // …and its arguments, NUL-separated, for the "plain, reviewer's arguments" case.
  const argsFile = path.join(world.root, 'reviewer-args');
  fs.writeFileSync(wrapper, `#!/bin/sh\necho "$(date +%s%N) $*" >> '${stamps}'\nprintf '%s\\0' "$@" > '${argsFile}'\nexec '${deps.claudeBin}' "$@"\n`, {
    mode: 0o755,
  });
  const sizes = {};
  try {
    for (const mb of sizesMb) {
      log(`transcript size ${mb} MiB: ${runs} runs per case…`);
      const session = await sessionOfSize({ claudeBin: deps.claudeBin, world }, mb);
      const hookOn = (cli, s, own) => async () => {
        s.turn(s.transcript);
        fs.rmSync(stamps, { force: true });
        const t0 = performance.now();
        const env = { ...world.env, CCC_CLAUDE: wrapper };
        const r = await run(process.execPath, [cli, 'supervisor-hook'], { env, cwd: world.cwd, input: stopInput(world, s) });
        if (r.code !== 0 || r.stderr.trim() !== '') return undefined;
        const spawned =
          Number(
            fs
              .readFileSync(stamps, 'utf8')
              .split('\n')
              .find((l) => l.includes('--fork-session'))
              ?.split(' ')[0],
          ) / 1e6;
        own.push(Math.round(spawned - (performance.timeOrigin + t0)));
        return firstRequestAfter(server, t0);
      };
      const own = { ccc: [], compare: [] };
      const cases = {
        ccc: hookOn(CLI, session, own.ccc),
        plain: async () => {
          const t0 = performance.now();
          // Without persistence, as ccc's reviewer runs: a persisted fork first writes the whole history anew.
          const args = [
            '-p',
            'hello',
            '--resume',
            session.sessionId,
            '--fork-session',
            '--no-session-persistence',
            '--output-format',
            'stream-json',
            '--verbose',
          ];
          const r = await run(deps.claudeBin, args, {
            env: world.env,
            cwd: world.cwd,
          });
          return r.code === 0 ? firstRequestAfter(server, t0) : undefined;
        },
      };
      if (reviewerArgs) {
        // claude with the arguments ccc's reviewer had (its settings and hooks): what is claude's
        // own cost of those, apart from ccc's. Needs the ccc case to have run first (its first stop).
        cases["plain, reviewer's arguments"] = async () => {
          const args = fs.readFileSync(argsFile, 'utf8').split('\0').slice(0, -1);
          const t0 = performance.now();
          const r = await run(deps.claudeBin, args, { env: world.env, cwd: world.cwd, input: 'hello' });
          return r.code === 0 ? firstRequestAfter(server, t0) : undefined;
        };
      }
      const keep = [session.transcript];
      if (COMPARE_CLI) {
        // Its own session: an older build's state would drop where this build's reading stopped.
        const copy = { ...session, sessionId: randomUUID() };
        copy.transcript = path.join(session.dir, `${copy.sessionId}.jsonl`);
        fs.copyFileSync(session.transcript, copy.transcript);
        keep.push(copy.transcript);
        cases['ccc (compare build)'] = hookOn(COMPARE_CLI, copy, own.compare);
      }
      // The session's first stop reads the whole transcript once (and keeps its place): not the stop measured.
      for (const name of Object.keys(cases))
        if (name !== 'plain' && (await cases[name]()) === undefined) throw new Error(`${name}: the first stop reached no review`);
      own.ccc.length = 0;
      own.compare.length = 0;
      const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
      const order = Object.keys(cases);
      for (let i = 0; i < runs + 1; i++) {
        for (const name of i % 2 === 0 ? order : [...order].reverse()) {
          const ms = await cases[name]();
          removeForks(session, keep);
          if (ms === undefined) throw new Error(`${mb} MiB, ${name}: no model request`);
          if (i > 0) times[name].push(Math.round(ms));
        }
        // The warm-up round's own part goes too.
        if (i === 0) for (const list of Object.values(own)) list.length = 0;
      }
      const bytes = fs.statSync(session.transcript).size;
      const medians = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
      sizes[mb] = {
        bytes,
        cccMs: medians.ccc,
        plainMs: medians.plain,
        addedMs: medians.ccc - medians.plain,
        ownMs: median(own.ccc),
        ...(reviewerArgs ? { reviewerArgsMs: medians["plain, reviewer's arguments"] } : {}),
        ...(COMPARE_CLI
          ? { compareMs: medians['ccc (compare build)'], compareAddedMs: medians['ccc (compare build)'] - medians.plain, compareOwnMs: median(own.compare) }
          : {}),
        runsMs: times,
        ownRunsMs: own,
      };
      log(
        `transcript size ${mb} MiB: ccc adds ${Math.round(sizes[mb].addedMs)} ms over plain (${Math.round(medians.plain)} ms); its own part ${sizes[mb].ownMs} ms`,
      );
      for (const file of keep) fs.rmSync(file, { force: true });
    }
  } finally {
    await server.close();
    world.cleanup();
  }
  const spread = (key) => {
    const list = Object.values(sizes).map((s) => s[key]);
    return Math.max(...list) - Math.min(...list);
  };
  log("transcript size: the stop's reading alone, in one process…");
  const reading = await benchStopReading({ sizesMb, runs: Math.max(runs, 5) });
  return { sizes, runs, addedSpreadMs: spread('addedMs'), ownSpreadMs: spread('ownMs'), reading };
}
