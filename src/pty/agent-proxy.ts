/**
 * Starts the agent behind the transparent proxy, on the fastest byte path available: the native
 * relay (`ccc-relay`, built with the package) or, where it was not built or `CCC_RELAY=off`, the
 * Node proxy on node-pty. Both keep the same contract (`BytePath` in byte-path.ts), signals ccc
 * receives go on to the agent, and both leave the user's terminal as they found it.
 */
import type { BytePath, BytePathOptions } from './byte-path.js';
import { forwardSignals } from './forward-signals.js';
import { findRelay, startNativeRelay } from './native-relay.js';

export interface AgentProxyOptions extends BytePathOptions {
  /** Defaults to `findRelay()`; undefined means the Node proxy. */
  relayPath?: string | undefined;
}

/**
 * Resolves once the agent has been spawned and its streams exist: subscribe right away, output
 * and input from the very start are delivered (the relay holds them until then).
 */
export async function startAgentProxy(options: AgentProxyOptions): Promise<BytePath> {
  const relayPath = 'relayPath' in options ? options.relayPath : findRelay();
  // The Node proxy loads RxJS before its spawn: node-pty delivers output only to listeners already there.
  const path = relayPath ? await startNativeRelay({ ...options, relayPath }) : (await import('./node-proxy.js')).startNodeProxy(options);
  const forwarding = new AbortController();
  forwardSignals((signal) => path.kill(signal), forwarding.signal);
  void path.exit.then(() => forwarding.abort());
  return path;
}
