/**
 * Starts the agent behind the transparent proxy, on the fastest byte path available: the native
 * relay (`ccc-relay`, built with the package) or, where it was not built or `CCC_RELAY=off`, the
 * Node proxy on node-pty. Both give the same `Proxy`: output and input copies, the exit, title
 * injection, observer input; and both leave the user's terminal as they found it.
 */
import tty from 'node:tty';
import type { Observable } from '../rx.js';
import { spawnAgentPty, type Undo } from './agent-pty.js';
import { forwardSignals } from './forward-signals.js';
import { findRelay, startNativeRelay } from './native-relay.js';
import type { Proxy } from './proxy.js';
import { processTerminal, writeResetSync } from './terminal.js';

export interface AgentProxyOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Observers may attach: the Node proxy copies all output to `output$`; the relay keeps the
   * last `tailBytes` and copies only between `watch(true)` and `watch(false)`.
   */
  observe: { tailBytes: number } | undefined;
  onError(message: string): void;
  /** Defaults to `findRelay()`; undefined means the Node proxy. */
  relayPath?: string | undefined;
}

export interface AgentProxy extends Proxy {
  readonly kind: 'relay' | 'node';
  readonly pid: Promise<number | undefined>;
  /** Output bytes observers missed (the relay's tee overflowed while ccc was busy). */
  readonly gap$: Observable<number>;
  /** The latest output, when the copy is switched back on (relay only). */
  readonly tail$: Observable<Buffer>;
  /** Switches the output copy on (resolves once `tail$` delivered) or off; the Node proxy always copies. */
  watch(on: boolean): Promise<void>;
  /** The user's terminal size, and its changes. */
  size(): { cols: number; rows: number };
  onResize(listener: () => void): Undo;
  /** Puts the user's terminal back (raw mode off, modes reset); safe to call more than once. */
  restoreTerminal(): void;
}

/**
 * Resolves once the agent has been spawned and its streams exist: subscribe right away, output
 * and input from the very start are delivered (the relay holds them until then).
 */
export async function startAgentProxy(options: AgentProxyOptions): Promise<AgentProxy> {
  const relayPath = 'relayPath' in options ? options.relayPath : findRelay();
  return relayPath ? relayProxy(relayPath, options) : nodeProxy(options);
}

async function relayProxy(relayPath: string, options: AgentProxyOptions): Promise<AgentProxy> {
  const stdout = process.stdout;
  const size = () => ({ cols: stdout.columns || 80, rows: stdout.rows || 24 });
  const relay = await startNativeRelay({ relayPath, ...options, teeOutput: false, tailBytes: options.observe?.tailBytes ?? 0, ...size() });
  void relay.exit.then(forwardSignals((signal) => relay.kill(signal)));
  return Object.assign(relay, {
    kind: 'relay' as const,
    size,
    onResize: (listener: () => void) => {
      stdout.on('resize', listener);
      return () => void stdout.off('resize', listener);
    },
    // The relay restores the terminal itself before it reports the exit (or ccc does, if it was killed).
    restoreTerminal: () => {},
  });
}

/** The fallback loads RxJS before its spawn: node-pty delivers output only to listeners already there. */
async function nodeProxy(options: AgentProxyOptions): Promise<AgentProxy> {
  const [{ Subject }, { startProxy }] = await Promise.all([import('../rx.js'), import('./proxy.js')]);
  const terminal = processTerminal();
  const pty = spawnAgentPty({ ...options, ...terminal.size() });
  const restoreRaw = terminal.enterRaw();
  const proxy = startProxy({ terminal, pty });
  let restored = false;
  return Object.assign(proxy, {
    kind: 'node' as const,
    pid: Promise.resolve(pty.pid),
    gap$: new Subject<number>(), // the Node proxy hands output over synchronously: it cannot fall behind
    tail$: new Subject<Buffer>(),
    watch: () => Promise.resolve(),
    size: terminal.size,
    onResize: terminal.onResize,
    restoreTerminal: () => {
      if (restored) return;
      restored = true;
      restoreRaw();
      if (terminal.isTTY && tty.isatty(1)) writeResetSync(1, proxy.altScreen.active);
    },
  });
}
