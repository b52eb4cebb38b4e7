/**
 * Text ccc writes into the user's terminal on the Node proxy (an injection): never inside a
 * control sequence or character the agent is in the middle of writing, so it waits for the next
 * boundary in the output, or for the agent to have been quiet for `injectIdleMs` (checked by a
 * timer it owns until disposed). Once disposed (the agent is gone and the terminal restored), an
 * injection is dropped: nothing ccc says may land after the terminal's reset, where it would outlive
 * the session (a title left behind, text after the shell's prompt).
 */
import { interval, type Disposable } from '../lifetime/disposable-store.js';
import { SequenceTracker } from './terminal-modes.js';

export interface PendingInjectionOptions {
  injectIdleMs: number;
  /** When the agent last wrote. */
  lastDataAt(): number;
  /** Puts the bytes on the terminal and in ccc's copies. */
  write(bytes: Buffer): void;
}

export class PendingInjection implements Disposable {
  readonly #options: PendingInjectionOptions;
  readonly #sequences = new SequenceTracker();
  readonly #idle: Disposable;
  #pending = '';
  #disposed = false;

  constructor(options: PendingInjectionOptions) {
    this.#options = options;
    this.#idle = interval(
      () => {
        if (this.#pending && Date.now() - options.lastDataAt() >= options.injectIdleMs) this.#write();
      },
      Math.max(10, options.injectIdleMs / 2),
      { unref: true },
    );
  }

  add(text: string): void {
    if (this.#disposed) return;
    this.#pending += text;
    this.#flush();
  }

  /** The agent wrote `chunk`: a boundary may have come. */
  afterOutput(chunk: Buffer): void {
    this.#sequences.feed(chunk);
    if (this.#pending) this.#flush();
  }

  dispose(): void {
    this.#disposed = true;
    this.#pending = '';
    this.#idle.dispose();
  }

  #flush(): void {
    if (this.#pending && this.#sequences.atBoundary) this.#write();
  }

  #write(): void {
    const bytes = Buffer.from(this.#pending);
    this.#pending = '';
    this.#options.write(bytes);
  }
}
