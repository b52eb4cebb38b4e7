/**
 * Checker plugins that misbehave, with the real claude: `process.exit` in a plugin, a plugin that
 * spins synchronously past its timeout, and one that writes to stdout and stderr. Each runs in a
 * thread of its own, so the session goes on: headless with the run's own exit code and clean
 * `--json`, interactive with the TUI undisturbed and the next stop reviewed by a fresh thread.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { readLog, runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { cccBin } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';
import { jsonLines } from '../support/run-process.js';

const EXITS = `export default { name: 'exiter', check() { process.exit(7); } };`;

/** Spins 60 s without yielding, then leaves a mark and answers: neither may ever happen once it timed out. */
const SPINS = (late: string) => `import fs from 'node:fs';
export default {
  name: 'spinner',
  check() {
    const end = Date.now() + 60_000;
    while (Date.now() < end) {}
    fs.writeFileSync(${JSON.stringify(late)}, 'late');
    return { completed: false, feedback: 'LATE-VERDICT' };
  },
};`;

/**
 * Keeps all it makes, writing ccc's RSS (MB, /proc/self/status: the whole process) after each
 * batch; past 1.5 GB it gives up and answers, so that a missing heap limit fails the test instead
 * of exhausting the machine.
 */
const HOG = (peak: string) => `import fs from 'node:fs';
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
export default { name: 'hog', check() {
  const kept = [];
  for (;;) {
    for (let i = 0; i < 20000; i++) kept.push({ i, text: 'x' + i, list: [i, i + 1, i + 2] });
    const now = rss();
    fs.writeFileSync(${JSON.stringify(peak)}, String(now));
    if (now > 1536) return { completed: false, feedback: 'UNBOUNDED' };
  }
} };`;

const NOISY = `export default {
  name: 'noisy',
  onFrame() { process.stdout.write('NOISE-FRAME\\n'); },
  check() {
    console.log('NOISE-CHECK-LOG');
    process.stdout.write('NOISE-CHECK-STDOUT\\n');
    console.error('NOISE-CHECK-STDERR');
    return { completed: true, feedback: 'quiet now' };
  },
};`;

describe('checker plugins in a thread of their own', () => {
  async function setup(rig: Rig, plugins: Record<string, string>) {
    const server = await rig.server((r) => ({ text: `agent answer ${r.index}` }));
    const world = rig.world({ server });
    for (const [file, source] of Object.entries(plugins)) fs.writeFileSync(path.join(world.cwd, file), source);
    return { server, world };
  }

  it("headless: process.exit(7) in a plugin is a checker failure naming it (exit 4), not the run's exit code", async ({ rig }) => {
    const { world } = await setup(rig, { 'exits.mjs': EXITS });
    const run = await runCcc(world, ['--supervisor', '--checker', './exits.mjs', '-p', 'do it']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('ccc: error: checker "exiter" failed: its plugin ./exits.mjs called process.exit(7)');
    expect(readLog(world)).toMatch(
      /\[ERROR\] .*exit_code=7 .*checker failed; stop allowed: checker "exiter" failed: its plugin \.\/exits\.mjs called process\.exit\(7\)/,
    );
  });

  it('headless: a plugin spinning past --timeout 3 is stopped and its late verdict never arrives', async ({ rig }) => {
    const { server, world } = await setup(rig, {});
    const late = path.join(world.root, 'late');
    fs.writeFileSync(path.join(world.cwd, 'spins.mjs'), SPINS(late));
    const run = await runCcc(world, ['--supervisor', '--timeout', '3', '--checker', './spins.mjs', '-p', 'do it']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('checker "spinner" did not answer within 3s');
    expect(run.stderr).not.toContain('LATE-VERDICT');
    expect(server.byKind('agent')).toHaveLength(1); // no feedback turn from the late verdict
    // The spin was cut off: it never reached its end, which a run that waited for it would have seen.
    expect(fs.existsSync(late)).toBe(false);
    expect(readLog(world)).toMatch(/duration=\d+ms checker failed; stop allowed: checker "spinner"/);
  });

  it("headless: a plugin that allocates without end runs out of its heap (CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB=64), named; ccc's RSS stays bounded", async ({
    rig,
  }) => {
    const { server, world } = await setup(rig, {});
    const peak = path.join(world.root, 'peak-rss');
    fs.writeFileSync(path.join(world.cwd, 'hog.mjs'), HOG(peak));
    const run = await runCcc(world, ['--supervisor', '--checker', './hog.mjs', '-p', 'do it'], { env: { CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB: '64' } });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(
      'ccc: error: checker "hog" failed: its plugin ./hog.mjs ran out of memory (limit 64 MB; raise supervisor.plugin_max_memory_mb or CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB)',
    );
    expect(run.stderr).not.toContain('UNBOUNDED');
    // ccc's RSS as the plugin last saw it, just before its thread died: ccc itself, the 64 MB heap and V8's overhead.
    expect(Number(fs.readFileSync(peak, 'utf8'))).toBeLessThan(512);
    expect(server.byKind('agent')).toHaveLength(1);
  });

  it('headless --json: what a plugin writes to stdout or stderr goes to the log, not into the JSON lines or the terminal', async ({ rig }) => {
    const { world } = await setup(rig, { 'noisy.mjs': NOISY });
    const run = await runCcc(world, ['--supervisor', '--json', '--checker', './noisy.mjs', '-p', 'do it']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(jsonLines(run.stdout)).toHaveLength(lines.length); // every line is JSON
    expect(run.stdout + run.stderr).not.toContain('NOISE');
    const log = readLog(world);
    for (const noise of ['NOISE-CHECK-LOG', 'NOISE-CHECK-STDOUT', 'NOISE-FRAME'])
      expect(log).toMatch(new RegExp(`\\[INFO\\] .*checker=noisy text=${noise} checker "noisy" wrote to stdout`));
    expect(log).toMatch(/\[WARN\] .*checker=noisy text=NOISE-CHECK-STDERR checker "noisy" wrote to stderr/);
  });

  it('interactive: a plugin that writes, exits, then spins never ends, blocks or draws over the session; the next stop gets a fresh thread', async ({
    rig,
  }) => {
    // One plugin, three behaviours by review number (kept in a file: a fresh thread forgets the module's state).
    const count = 'COUNT_FILE';
    const FLAKY = `import fs from 'node:fs';
let checksInThisThread = 0;
export default {
  name: 'flaky',
  check() {
    const n = (fs.existsSync(${JSON.stringify(count)}) ? Number(fs.readFileSync(${JSON.stringify(count)}, 'utf8')) : 0) + 1;
    fs.writeFileSync(${JSON.stringify(count)}, String(n));
    checksInThisThread++;
    process.stdout.write('NOISE-INTERACTIVE\\n');
    console.error('NOISE-INTERACTIVE-ERR');
    if (n === 1) process.exit(7);
    if (n === 2) { const end = Date.now() + 60_000; while (Date.now() < end) {} }
    return { completed: true, feedback: 'FRESH-THREAD checks=' + checksInThisThread };
  },
};`;
    const { world } = await setup(rig, {});
    writeSupervisorPrompt(world);
    fs.writeFileSync(path.join(world.cwd, 'flaky.mjs'), FLAKY.replaceAll('COUNT_FILE', path.join(world.root, 'count')));
    const script = `"${process.execPath}" "${cccBin}" --supervisor --timeout 3 --checker ./flaky.mjs; echo "CCC-EXIT=$?"; sleep 5`;
    const h = rig.pty('/bin/sh', ['-c', script], { cwd: world.cwd, env: world.env });
    await h.waitForScreen(/❯/, 60_000);

    const ask = async (task: string, answer: RegExp) => {
      await h.type(task);
      h.press('\r');
      await h.waitForScreen(answer, 60_000);
      await h.waitForScreen(/❯\s*\n/, 20_000);
    };
    await ask('first task', /stopped supervising: checker "flaky" failed: its plugin \.\/flaky\.mjs called process\.exit\(7\)/);
    await ask('second task', /stopped supervising: checker "flaky" did not answer within 3s/);
    await ask('third task', /third task[\s\S]*review 1 \(flaky\): complete/); // a new task counts from 1
    expect(readLog(world)).toMatch(/feedback="FRESH-THREAD checks=1"/); // the thread that spun was replaced
    expect(h.screen()).not.toContain('NOISE');
    await h.type('/exit');
    await h.waitForScreen(/❯\s\/exit/, 10_000);
    h.press('\r');
    await h.waitForOutput(/CCC-EXIT=\d+/, 30_000);
    expect(h.output().toString()).toMatch(/CCC-EXIT=0/);
    expect(h.output().toString()).not.toContain('NOISE');
    expect(readLog(world).match(/text=NOISE-INTERACTIVE checker "flaky" wrote to stdout/g)).toHaveLength(3);
  }, 180_000);
});
