/**
 * Keystroke round trip: one byte written to the pty master, timed until its echo
 * comes back, one keystroke at a time. All variants are started together and measured in
 * alternating blocks (one keystroke each by default), so a burst of load from elsewhere on the machine hits them alike.
 */
import path from 'node:path';
import { PtyDriver, READY } from './lib/pty-driver.mjs';
import { ProxyTree } from './lib/proc-status.mjs';
import { summarize } from './lib/stats.mjs';
import { FIXTURES, variantSpec } from './lib/variants.mjs';

const AGENT = path.join(FIXTURES, 'echo-agent.sh');
const KEYSTROKE_TIMEOUT_MS = 5000;

/** Round trip of one byte, in microseconds, from just before the write to the echo's arrival. */
export function roundTrip(driver, byte) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no echo of byte ${byte} within ${KEYSTROKE_TIMEOUT_MS} ms`)), KEYSTROKE_TIMEOUT_MS);
    const t0 = process.hrtime.bigint();
    driver.onChunk = (chunk, at) => {
      if (chunk.indexOf(byte) === -1) return;
      clearTimeout(timer);
      driver.onChunk = () => {};
      resolve(Number(at - t0) / 1000);
    };
    driver.write(String.fromCharCode(byte));
  });
}

/**
 * @param {{ variants: string[], count: number, warmup: number, block: number, workspace: object, log: (s: string) => void }} o
 * @returns {Promise<Record<string, {n,p50,p90,p99,max} | { unavailable: string }>>}
 */
export async function benchKeystrokes(o) {
  const drivers = new Map();
  const results = {};
  try {
    for (const id of o.variants) {
      const driver = new PtyDriver(variantSpec(id, AGENT, o.workspace));
      try {
        await driver.waitFor(READY, 20000, id);
        drivers.set(id, driver);
      } catch (error) {
        results[id] = { unavailable: error.message };
        await driver.stop();
      }
    }
    const samples = new Map([...drivers.keys()].map((id) => [id, []]));
    let next = 0x61;
    const key = () => {
      const byte = next;
      next = next === 0x7a ? 0x61 : next + 1;
      return byte;
    };
    for (const [, driver] of drivers) for (let i = 0; i < o.warmup; i++) await roundTrip(driver, key());
    // CPU time of the process between the harness and the stand-in (script, ccc): a figure that
    // machine load hardly moves, unlike latency. For (a) it would be the stand-in's own.
    const trees = new Map([...drivers].map(([id, d]) => [id, new ProxyTree(d.pid)]));
    const cpuBefore = new Map([...trees].map(([id, tree]) => [id, tree.cpuMs()]));
    const progressEvery = Math.max(o.block, Math.round(o.count / 5));
    for (let done = 0; done < o.count; done += o.block) {
      const n = Math.min(o.block, o.count - done);
      for (const [id, driver] of drivers) {
        const list = samples.get(id);
        for (let i = 0; i < n; i++) list.push(await roundTrip(driver, key()));
      }
      if ((done + n) % progressEvery === 0) o.log(`keystrokes: ${done + n}/${o.count} per variant`);
    }
    for (const [id, list] of samples) {
      const cpuMs = trees.get(id).cpuMs() - cpuBefore.get(id);
      results[id] = { ...summarize(list), ...(id === 'direct' ? {} : { proxyCpuMsPer1000: (cpuMs * 1000) / list.length }) };
    }
  } finally {
    await Promise.all([...drivers.values()].map((d) => d.stop()));
  }
  return results;
}
