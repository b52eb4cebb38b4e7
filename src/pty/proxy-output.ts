/**
 * The agent's output on the Node proxy: each chunk is written to the user's terminal first, then
 * copied for ccc (into the tail always, to `ptyOutput$` while watching), so nothing on the side can
 * slow the terminal down; the copy is handed over synchronously and never misses a byte. Flow
 * control: when the terminal is behind, the pty is paused until it drains, so the agent feels the
 * backpressure it would in a direct terminal and memory stays bounded.
 */
import type { Subject } from '../rx.js';
import type { AgentPty } from './agent-pty.js';
import { ByteRing } from './byte-ring.js';
import { AltScreenTracker } from './terminal-modes.js';
import type { UserTerminal } from './terminal.js';

export interface ProxyOutputStreams {
  ptyOutput$: Subject<Buffer>;
  tail$: Subject<Buffer>;
  altScreenChange$: Subject<boolean>;
}

export class ProxyOutput {
  readonly altScreen = new AltScreenTracker();
  /** When the agent last wrote. */
  lastDataAt = Date.now();
  readonly #pty: AgentPty;
  readonly #terminal: UserTerminal;
  readonly #streams: ProxyOutputStreams;
  readonly #tail: ByteRing;
  #watching: boolean;
  #paused = false;

  constructor(pty: AgentPty, terminal: UserTerminal, streams: ProxyOutputStreams, options: { tailBytes?: number; watching?: boolean }) {
    this.#pty = pty;
    this.#terminal = terminal;
    this.#streams = streams;
    this.#tail = new ByteRing(options.tailBytes ?? 0);
    this.#watching = options.watching ?? false;
  }

  /** The pty is paused: the user's terminal has not taken everything yet. */
  get behind(): boolean {
    return this.#paused;
  }

  /** A chunk of the agent's output. */
  receive(chunk: Buffer): void {
    this.lastDataAt = Date.now();
    if (!this.#terminal.write(chunk) && !this.#paused) {
      this.#paused = true;
      this.#pty.pause();
    }
    const wasAlt = this.altScreen.active;
    this.altScreen.observe(chunk);
    if (this.altScreen.active !== wasAlt) this.#streams.altScreenChange$.next(this.altScreen.active);
    this.copy(chunk);
  }

  /** What the terminal got goes to the copy while watching, and always into the tail. */
  copy(bytes: Buffer): void {
    this.#tail.write(bytes);
    if (this.#watching) this.#streams.ptyOutput$.next(bytes);
  }

  /** The terminal caught up (or the agent is gone and its last output must be read). */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#pty.resume();
  }

  /** Watching starts with the tail, then the live copy. */
  watch(on: boolean): void {
    if (on && !this.#watching) this.#streams.tail$.next(this.#tail.contents());
    this.#watching = on;
  }
}
