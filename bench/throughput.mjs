/**
 * Bulk output: the stand-in writes N bytes of text lines as fast as the
 * terminal takes them; the harness reads them as a terminal emulator would. Timed from the "go"
 * byte to the end marker, so process start-up is not part of the figure.
 */
import path from 'node:path';
import { DONE, PtyDriver, READY } from './lib/pty-driver.mjs';
import { ProxyTree, sampleRss } from './lib/proc-status.mjs';
import { median } from './lib/stats.mjs';
import { FIXTURES, variantSpec } from './lib/variants.mjs';

const AGENT = path.join(FIXTURES, 'flood-agent.sh');
const MiB = 1024 * 1024;

/**
 * One flood through one variant. With `memory`, the variant's own process (ccc) is sampled while
 * the bytes pass, and its high-water mark is read while everything is still alive.
 */
export async function floodOnce(variant, bytes, workspace, { memory = false } = {}) {
  const driver = new PtyDriver(variantSpec(variant, AGENT, workspace, { BENCH_FLOOD_BYTES: String(bytes) }));
  try {
    await driver.waitFor(READY, 20000, variant);
    const tree = new ProxyTree(driver.pid);
    const before = memory ? tree.memory() : undefined;
    const stopSampling = memory ? sampleRss(tree) : () => NaN;
    const startBytes = driver.bytes;
    const cpuBefore = tree.cpuMs();
    const done = driver.waitFor(DONE, 600000, `${variant} flood`);
    const t0 = process.hrtime.bigint();
    driver.write('g');
    const t1 = await done;
    const sampledMax = stopSampling();
    const after = memory ? tree.memory() : undefined;
    const cpuMs = tree.cpuMs() - cpuBefore;
    const seconds = Number(t1 - t0) / 1e9;
    const received = driver.bytes - startBytes;
    driver.write('q');
    return {
      seconds,
      mbPerS: bytes / MiB / seconds,
      received,
      // CPU of the process in the middle (script, ccc) per MiB; for (a) it is the stand-in's shell.
      proxyCpuMsPerMiB: cpuMs / (bytes / MiB),
      cpuMs,
      ...(memory
        ? {
            rssAtStartMiB: before.rssMiB,
            rssMaxSampledMiB: sampledMax,
            hwmMiB: after.hwmMiB,
            processes: after.each.map(({ name, hwmMiB }) => ({ name, hwmMiB })),
          }
        : {}),
    };
  } finally {
    await driver.stop();
  }
}

/**
 * Median MB/s of `reps` floods per variant, variants alternating within each repetition and in
 * reverse order every other one (so none always runs first). The ratios to (a) and (b) are the
 * medians of each repetition's own ratio: floods a few seconds apart share the machine's load,
 * repetitions a minute apart do not.
 * @returns {Promise<Record<string, { mbPerS: number, runs: number[], vsDirect?: number, vsScript?: number } | { unavailable: string }>>}
 */
export async function benchThroughput({ variants, bytes, reps, workspace, log }) {
  const runs = new Map(variants.map((id) => [id, []]));
  const results = {};
  for (let rep = 0; rep < reps; rep++) {
    for (const id of rep % 2 === 0 ? variants : [...variants].reverse()) {
      if (results[id]) continue; // unavailable
      try {
        const r = await floodOnce(id, bytes, workspace);
        if (r.received < bytes) throw new Error(`${id}: only ${r.received} of ${bytes} bytes arrived`);
        runs.get(id).push(r);
      } catch (error) {
        results[id] = { unavailable: error.message };
      }
    }
    log(`throughput: repetition ${rep + 1}/${reps}`);
  }
  const paired = (list, reference) => {
    const base = runs.get(reference);
    if (results[reference] || !base || base.length !== list.length) return undefined;
    return Math.round(median(list.map((r, i) => r.mbPerS / base[i].mbPerS)) * 100) / 100;
  };
  for (const [id, list] of runs) {
    if (results[id]) continue;
    results[id] = {
      mbPerS: median(list.map((r) => r.mbPerS)),
      runs: list.map((r) => Math.round(r.mbPerS * 10) / 10),
      ...(id === 'direct'
        ? {}
        : { vsDirect: paired(list, 'direct'), vsScript: paired(list, 'script'), proxyCpuMsPerMiB: median(list.map((r) => r.proxyCpuMsPerMiB)) }),
    };
  }
  return results;
}

/** Proxy RSS while `bytes` of output pass through `ccc --supervisor`. */
export async function benchProxyMemory({ bytes, workspace }) {
  const r = await floodOnce('ccc-sup', bytes, workspace, { memory: true });
  return {
    mb: bytes / MiB,
    mbPerS: r.mbPerS,
    rssAtStartMiB: r.rssAtStartMiB,
    rssMaxSampledMiB: r.rssMaxSampledMiB,
    hwmMiB: r.hwmMiB,
    cpuMs: r.cpuMs,
    processes: r.processes,
  };
}
