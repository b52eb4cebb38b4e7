/**
 * The byte path's contract: the agent in a pty behind the user's terminal, byte for byte, with
 * copies for ccc on the side. Two implementations keep it in full, the native relay
 * (`native-relay.ts` with native/relay.c, the default) and the Node proxy (`node-proxy.ts`, where
 * the relay was not built or `CCC_RELAY=off`); one test suite runs over both
 * (test/pty/byte-path-contract.test.ts). Both follow the rules in byte-path-rules.ts.
 *
 * One style per kind: what happens over time is an Observable (completed after the agent's exit),
 * a one-shot result is a Promise, and the byte path's own lifetime is the agent's: nothing to
 * unsubscribe from but the streams.
 */
import type { Observable } from '../rx.js';
import type { BytePathTiming } from './byte-path-rules.js';

export interface AgentExit {
  exitCode: number;
  signal?: number;
  /** The byte path itself died before it could report the agent's exit (the relay killed): how, in words. */
  relayLost?: string;
}

export interface BytePathOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Copy the output to `ptyOutput$` from the start; off, nothing is copied until `watch(true)`. */
  watching?: boolean;
  /** How much of the latest output is kept for `tail$` (0: none). */
  tailBytes?: number;
  /** byte-path-rules.ts' TIMING unless given. */
  timing?: Partial<BytePathTiming>;
}

export interface BytePath {
  readonly kind: 'relay' | 'node';
  /** The agent's pid once it runs; undefined when it could not be started. */
  readonly pid: Promise<number | undefined>;
  /**
   * While watching: every chunk the user's terminal got (the agent's output and ccc's injections),
   * after it was written. A chunk may be a view of a buffer that is reused once the subscriber
   * returns: copy what you keep.
   */
  readonly ptyOutput$: Observable<Buffer>;
  /** The last `tailBytes` of that output, sent when watching starts, before `ptyOutput$` resumes. */
  readonly tail$: Observable<Buffer>;
  /**
   * Bytes the copy missed because ccc fell behind: what `ptyOutput$` delivered plus the gaps is what the
   * terminal got. The relay's copy is bounded; the Node proxy copies synchronously and never misses.
   */
  readonly gap$: Observable<number>;
  /** Every byte the user's terminal sent the agent, in order, after it reached the agent (in batches). */
  readonly stdin$: Observable<Buffer>;
  /**
   * What the user typed: `stdin$` without the terminal's replies to the agent's queries (cursor,
   * focus and device reports, colours), one reply split across reads included (byte-path-streams.ts).
   * A lone ESC comes a moment late: until then it may be the start of a reply.
   */
  readonly typed$: Observable<Buffer>;
  /**
   * A problem the session survives (a broken relay stream), or why the agent could not start. What
   * happened before the caller could subscribe is delivered right after `startAgentProxy` resolves.
   */
  readonly errors$: Observable<string>;
  /** Whether the agent has the user's terminal on the alternate screen: the current state on subscribe, then each change. */
  readonly altScreen$: Observable<boolean>;
  /** The user's terminal size (the agent's pty follows it) at each change; not completed by the exit. */
  readonly resize$: Observable<TerminalSize>;
  /**
   * The agent's exit, once its last output was drained and the user's terminal was put back (its
   * mode as before, the modes a TUI may leave on switched off, the alternate screen left).
   */
  readonly exit: Promise<AgentExit>;
  /** Switches the output copy on (resolves once `tail$` delivered the tail) or off. */
  watch(on: boolean): Promise<void>;
  /**
   * Writes ccc's own bytes (a title update) to the user's terminal where they cannot split one of
   * the agent's escape or UTF-8 sequences, or once the agent has been quiet for `injectIdleMs`.
   */
  inject(bytes: string): void;
  /** Sends bytes to the agent as if typed (observers with input rights). */
  sendToAgent(bytes: Buffer): void;
  kill(signal: NodeJS.Signals): void;
  /** The user's terminal size now. */
  size(): TerminalSize;
}

export interface TerminalSize {
  cols: number;
  rows: number;
}
