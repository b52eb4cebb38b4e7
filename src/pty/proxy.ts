/**
 * The transparent proxy: user terminal <-> agent pty. The byte path is a direct write of each
 * Buffer chunk; everything else (recording input, observers, status) hangs off the RxJS subjects
 * after the write, so nothing on the side can slow the user's terminal down.
 *
 * Flow control: when the user's terminal is behind, the pty is paused until it drains, so the
 * agent feels the same backpressure it would in a direct terminal and memory stays bounded.
 */
import { Subject, type Observable } from '../rx.js';
import type { AgentExit, AgentPty, Undo } from './agent-pty.js';
import type { UserTerminal } from './terminal.js';
import { forwardSignals } from './forward-signals.js';
import { AltScreenTracker, safeToInjectAfter } from './terminal-modes.js';

export interface Proxy {
  /**
   * Every chunk written to the user's terminal (the agent's output and ccc's own title updates),
   * after it was written. A chunk may be a view of a buffer that is reused once the subscriber
   * returns (the relay's frames): copy what you keep.
   */
  readonly output$: Observable<Buffer>;
  /** Every chunk the user typed, after it reached the agent. */
  readonly input$: Observable<Buffer>;
  /** Resolves when the agent has exited and its last output has been drained. */
  readonly exit: Promise<AgentExit>;
  /** Whether the agent left the user's terminal on the alternate screen (restore leaves it). */
  readonly altScreen: { readonly active: boolean };
  /**
   * Writes ccc's own bytes (a terminal title update) to the user's terminal at the next point
   * where they cannot split one of the agent's escape or UTF-8 sequences.
   */
  inject(bytes: string): void;
  /** Sends bytes to the agent as if typed (observers with input rights). */
  sendToAgent(bytes: Buffer): void;
}

export interface ProxyOptions {
  terminal: UserTerminal;
  pty: AgentPty;
  /** Signals received by ccc that are passed on to the agent. */
  forwardSignals?: NodeJS.Signals[];
  /** How long to wait for trailing output after the agent exited. */
  drainQuietMs?: number;
}

export function startProxy(options: ProxyOptions): Proxy {
  const { terminal, pty } = options;
  const output$ = new Subject<Buffer>();
  const input$ = new Subject<Buffer>();
  const altScreen = new AltScreenTracker();
  const undo: Undo[] = [];
  let lastChunk: Buffer | undefined;
  let pendingInjection = '';
  let lastDataAt = Date.now();
  let paused = false;

  const writeInjection = () => {
    const bytes = Buffer.from(pendingInjection);
    pendingInjection = '';
    terminal.write(bytes);
    output$.next(bytes);
  };
  const flushInjection = () => {
    if (pendingInjection && safeToInjectAfter(lastChunk)) writeInjection();
  };

  undo.push(
    pty.onData((chunk) => {
      lastDataAt = Date.now();
      if (!terminal.write(chunk) && !paused) {
        paused = true;
        pty.pause();
      }
      lastChunk = chunk;
      altScreen.observe(chunk);
      if (pendingInjection) flushInjection();
      output$.next(chunk);
    }),
  );
  undo.push(
    terminal.onDrain(() => {
      if (paused) {
        paused = false;
        pty.resume();
      }
    }),
  );

  const onInput = (chunk: Buffer) => {
    pty.write(chunk);
    input$.next(chunk);
  };
  terminal.input.on('data', onInput);
  undo.push(() => terminal.input.off('data', onInput));

  undo.push(
    terminal.onResize(() => {
      const { cols, rows } = terminal.size();
      pty.resize(cols, rows);
    }),
  );

  undo.push(forwardSignals((signal) => pty.kill(signal), options.forwardSignals));

  // An injection waiting for a safe point is written once the agent has been quiet for a moment.
  const injectTimer = setInterval(() => {
    if (pendingInjection && Date.now() - lastDataAt > 100) writeInjection();
  }, 100);
  injectTimer.unref();
  undo.push(() => clearInterval(injectTimer));

  const exit = new Promise<AgentExit>((resolve) => {
    const off = pty.onExit(async (result) => {
      off();
      await waitForQuiet(() => lastDataAt, options.drainQuietMs ?? 50, 1000);
      if (paused) pty.resume();
      for (const u of undo.splice(0)) u();
      output$.complete();
      input$.complete();
      resolve(result);
    });
  });

  return {
    output$,
    input$,
    exit,
    altScreen,
    inject: (bytes) => {
      pendingInjection += bytes;
      flushInjection();
    },
    sendToAgent: (bytes) => pty.write(bytes),
  };
}

async function waitForQuiet(lastAt: () => number, quietMs: number, maxMs: number): Promise<void> {
  const start = Date.now();
  await new Promise((r) => setTimeout(r, quietMs));
  while (Date.now() - start < maxMs && Date.now() - lastAt() < quietMs) {
    await new Promise((r) => setTimeout(r, quietMs / 2));
  }
}
