/**
 * Proxy memory with observers attached: `ccc --supervisor --observe` while the
 * stand-in floods N MiB, with 50 WebSocket observers (one stuck: it stops reading after its
 * snapshot) in a separate process. The ccc process's RSS is sampled, its VmHWM read while
 * everything is still alive.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DONE, PtyDriver, READY } from './lib/pty-driver.mjs';
import { ProxyTree, sampleRss } from './lib/proc-status.mjs';
import { FIXTURES, makeWorkspace, ROOT, variantSpec } from './lib/variants.mjs';

const MiB = 1024 * 1024;
const AGENT = path.join(FIXTURES, 'flood-agent.sh');

function startObservers(url, count) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/observers-worker.mjs'), url, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let waiting;
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (text) => {
    buffered += text;
    for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, i)));
      buffered = buffered.slice(i + 1);
      waiting?.();
    }
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const nextLine = async (n) => {
    while (lines.length < n) {
      if (child.exitCode !== null) throw new Error('the observers process ended early');
      await new Promise((resolve) => {
        waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    return lines[n - 1];
  };
  return {
    ready: () => nextLine(1),
    finish: async () => {
      child.stdin.end();
      const report = await nextLine(2);
      await exited;
      return report;
    },
    kill: () => child.kill('SIGKILL'),
  };
}

export async function benchObserversMemory({ bytes, observers }) {
  const workspace = makeWorkspace();
  // Room for 50 observers (the default limit is 32).
  fs.writeFileSync(path.join(workspace.dir, '.cccrc.json'), JSON.stringify({ observer: { max_observers: observers + 8 } }));
  const spec = variantSpec('ccc-sup', AGENT, workspace, { BENCH_FLOOD_BYTES: String(bytes) });
  spec.args.push('--observe');
  const driver = new PtyDriver(spec);
  let clients;
  try {
    await driver.waitFor(READY, 20000, 'ccc --supervisor --observe');
    const url = /Observer: (\S+)/.exec(driver.head)?.[1];
    if (!url) throw new Error(`no observer URL in the output: ${JSON.stringify(driver.head.slice(0, 400))}`);
    clients = startObservers(url, observers);
    await clients.ready();
    const tree = new ProxyTree(driver.pid);
    const before = tree.memory();
    const stopSampling = sampleRss(tree);
    const cpuBefore = tree.cpuMs();
    const done = driver.waitFor(DONE, 900000, 'flood with observers');
    const t0 = process.hrtime.bigint();
    driver.write('g');
    const t1 = await done;
    const sampledMax = stopSampling();
    const after = tree.memory();
    const cpuMs = Math.round(tree.cpuMs() - cpuBefore);
    const report = await clients.finish();
    driver.write('q');
    return {
      mb: bytes / MiB,
      observers,
      mbPerS: bytes / MiB / (Number(t1 - t0) / 1e9),
      rssAtStartMiB: before.rssMiB,
      rssMaxSampledMiB: sampledMax,
      hwmMiB: after.hwmMiB,
      // CPU of all of ccc's processes during the flood; each live process's peak RSS.
      cpuMs,
      processes: after.each.map(({ name, hwmMiB }) => ({ name, hwmMiB: Math.round(hwmMiB * 10) / 10 })),
      stuckDropped: report.stuck.closeCode !== null,
      stuckCloseReason: report.stuck.closeReason,
      healthyDropped: report.healthyDropped,
      healthyMinMiB: report.healthyMinMiB,
      healthyMaxMiB: report.healthyMaxMiB,
    };
  } finally {
    clients?.kill();
    await driver.stop();
    workspace.remove();
  }
}
