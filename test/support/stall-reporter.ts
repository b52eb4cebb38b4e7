/**
 * Names a test file that stops making progress, and bounds it. vitest's own timeouts cover a test
 * or a hook awaiting forever, not a worker blocked in a synchronous call (a `spawnSync` whose child
 * never exits, a loop) or a file stuck while it is imported: such a file holds its worker until CI's
 * own limit kills the whole run, and the log then says nothing about which file it was.
 *
 * This runs in vitest's main process, whose event loop a stuck worker cannot block. A file running
 * past the limit (CCC_TEST_STALL_MINUTES, 10 by default, well above the slowest file on a loaded
 * machine) gets its name, its running tests and vitest's process tree printed, and every process
 * its worker started is killed once it is as old as the limit: a blocked call returns, the test fails
 * (and is retried in CI) instead of hanging. Still running after two limits, the run is ended with
 * exit 1, the report above it.
 */
import { spawnSync } from 'node:child_process';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { descendantTree } from './process-tree.js';

const LIMIT_MS = Number(process.env.CCC_TEST_STALL_MINUTES ?? 10) * 60_000;
/** How often the files' ages are read; CCC_TEST_STALL_CHECK_SECONDS sets it (its test makes a late check). */
const CHECK_MS = process.env.CCC_TEST_STALL_CHECK_SECONDS ? Number(process.env.CCC_TEST_STALL_CHECK_SECONDS) * 1000 : Math.min(30_000, LIMIT_MS / 4);

interface Running {
  since: number;
  tests: Set<string>;
  reported: boolean;
}

interface Row {
  pid: number;
  depth: number;
  ageSeconds: number;
  line: string;
}

/** vitest's descendants, parents first, each with its depth, age and `ps` line. */
function processTree(): Row[] {
  const tree = descendantTree(process.pid);
  if (tree.length === 0) return [];
  const pids = tree.map((d) => d.pid).join(',');
  // ps exits 1 when one of the pids is gone by the time it looks: its lines for the others stand.
  const run = spawnSync('ps', ['-o', 'pid=,etimes=,stat=,wchan:24=,args=', '-p', pids], { encoding: 'utf8', timeout: 10_000 });
  const lines = new Map<number, string>();
  for (const line of run.stdout.split('\n').filter(Boolean)) lines.set(Number(line.trim().split(/\s+/, 1)[0]), line.trim().slice(0, 240));
  return tree.flatMap(({ pid, depth }) => {
    const line = lines.get(pid);
    return line === undefined ? [] : [{ pid, depth, ageSeconds: Number(line.split(/\s+/)[1]), line }];
  });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

export default class StallReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private readonly killed = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  onTestRunStart() {
    this.timer = setInterval(() => this.check(), CHECK_MS);
    this.timer.unref();
  }

  onTestModuleQueued(module: TestModule) {
    this.running.set(module.moduleId, { since: Date.now(), tests: new Set(), reported: false });
  }

  onTestCaseReady(test: TestCase) {
    this.running.get(test.module.moduleId)?.tests.add(test.fullName);
  }

  onTestCaseResult(test: TestCase) {
    this.running.get(test.module.moduleId)?.tests.delete(test.fullName);
  }

  onTestModuleEnd(module: TestModule) {
    this.running.delete(module.moduleId);
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  private check() {
    const now = Date.now();
    for (const [file, run] of this.running) {
      const age = now - run.since;
      if (age < LIMIT_MS) continue;
      // A check that comes late (vitest's own process starved on a loaded machine) still names the
      // file and its tree before the run is ended.
      const firstReport = !run.reported;
      if (firstReport) {
        run.reported = true;
        this.report(file, run, age);
      }
      if (age >= 2 * LIMIT_MS) {
        process.stderr.write(`\nstall: ${file} still running after ${Math.round(age / 1000)} s; ending the run\n`);
        // A spinning worker outlives vitest's exit: every process below vitest goes with it.
        for (const { pid } of descendantTree(process.pid)) killQuietly(pid);
        process.exit(1);
      }
      // The file's clock starts when it is queued; on a loaded machine its worker may start the
      // child that holds it seconds later, so that child reaches the limit's age after the report.
      if (!firstReport) this.killAged(processTree(), false);
    }
  }

  private report(file: string, run: Running, age: number) {
    const lines = [`\nstall: ${file} has run ${Math.round(age / 1000)} s (limit ${LIMIT_MS / 1000} s)`];
    for (const name of run.tests) lines.push(`stall:   running: ${name}`);
    // A worker blocked in a synchronous call cannot send which test it began.
    if (run.tests.size === 0) lines.push('stall:   running: not reported by its worker (blocked before it could say)');
    const tree = processTree();
    lines.push('stall: vitest process tree (pid age-s stat wchan args):');
    for (const row of tree) lines.push(`stall: ${'  '.repeat(row.depth)}${row.line}`);
    process.stderr.write(`${lines.join('\n')}\n`);
    this.killAged(tree, true);
  }

  /** The workers are vitest's children; what they started as long ago as the stall is what holds one. Said when any is killed (or, at the report, that none was). */
  private killAged(tree: Row[], atReport: boolean) {
    const stuck = tree.filter((row) => row.depth >= 2 && row.ageSeconds * 1000 >= LIMIT_MS && !this.killed.has(row.pid));
    for (const row of stuck) {
      this.killed.add(row.pid);
      killQuietly(row.pid);
    }
    if (stuck.length > 0 || atReport)
      process.stderr.write(
        `stall: killed ${stuck.length} process(es) started ${LIMIT_MS / 1000} s or more ago under a worker: ${stuck.map((r) => r.pid).join(' ') || 'none'}\n`,
      );
  }
}
