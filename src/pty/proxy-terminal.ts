/**
 * The user's terminal while the Node proxy holds it: raw from construction, put back once when
 * disposed (the agent exited and its output was drained) or when ccc's process exits first (an
 * uncaught error, process.exit), and lent to the user's shell while the job is stopped (Ctrl-Z),
 * the alternate screen left for the shell and entered again when the job continues.
 */
import tty from 'node:tty';
import type { Disposable } from '../lifetime/disposable-store.js';
import { ALT_SCREEN_REENTER } from './byte-path-rules.js';
import { writeResetSync, type UserTerminal } from './terminal.js';

export class ProxyTerminal implements Disposable {
  readonly #terminal: UserTerminal;
  readonly #altScreenActive: () => boolean;
  /** The alternate screen was left for the user's shell while the job is stopped. */
  #altLeft = false;
  #restored = false;
  readonly #onProcessExit = () => this.#restore();

  constructor(terminal: UserTerminal, altScreenActive: () => boolean) {
    this.#terminal = terminal;
    this.#altScreenActive = altScreenActive;
    terminal.enterRaw();
    process.once('exit', this.#onProcessExit);
  }

  /** The job stopped: the shell gets the terminal as it was before the agent. */
  giveBack(): void {
    this.#terminal.leaveRaw();
    if (!this.#terminal.isTTY || !tty.isatty(1)) return;
    writeResetSync(1, this.#altScreenActive());
    this.#altLeft = this.#altScreenActive();
  }

  /** The job continues: raw again, on the alternate screen if it was left. */
  take(): void {
    // Off first: raw mode set again while libuv thinks it is on would not be written.
    this.#terminal.leaveRaw();
    this.#terminal.enterRaw();
    if (this.#altLeft) this.#terminal.write(ALT_SCREEN_REENTER);
    this.#altLeft = false;
  }

  dispose(): void {
    process.off('exit', this.#onProcessExit);
    this.#restore();
  }

  #restore(): void {
    if (this.#restored) return;
    this.#restored = true;
    this.#terminal.leaveRaw();
    if (this.#terminal.isTTY && tty.isatty(1)) writeResetSync(1, this.#altScreenActive() && !this.#altLeft);
  }
}
