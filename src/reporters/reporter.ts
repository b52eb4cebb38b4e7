/**
 * Every consumer of a supervised run's events (progress lines, `--json`, the terminal title,
 * observers, CI reports, the run's summary, kanban's log) is a Reporter, as every vitest output is
 * one of its reporters: the run hands each event and frame to the reporters it was given and
 * closes them once, at its end, with how it ended. Which reporters a run gets is decided in one
 * place, `reportersFor` (reporters.ts).
 */
import type { Frame } from '../frames/frame.js';
import type { SupervisorEvent } from '../loop/events.js';

/** How the run ended, for a reporter's last word. */
export interface RunEnd {
  /** The process's exit code; undefined when the run ended by an error thrown past it. */
  exitCode?: number;
  /** The session the run was in, when one was started. */
  sessionId?: string;
}

export interface Reporter {
  /** One event, in order; never awaited (a reporter that writes files queues and settles in `close`). */
  onEvent(event: SupervisorEvent): void;
  /** One of the agent's frames (headless: its `claude -p` stream; interactive: its transcript). */
  onFrame?(frame: Frame): void;
  /** The run is over: write what is left. Called once; must not throw (a report that cannot be written says so itself). */
  close?(end: RunEnd): Promise<void>;
}

/**
 * Reporters as one: each call goes to every reporter in order; one that throws is told to
 * `onError` and does not keep the event from the others.
 */
export class ReporterSet implements Reporter {
  private readonly reporters: Reporter[] = [];
  private closed = false;

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  /** Adds a reporter; the returned function removes it (without closing it). */
  add(reporter: Reporter): () => void {
    this.reporters.push(reporter);
    return () => {
      const at = this.reporters.indexOf(reporter);
      if (at >= 0) this.reporters.splice(at, 1);
    };
  }

  onEvent(event: SupervisorEvent): void {
    for (const reporter of [...this.reporters]) this.guard(() => reporter.onEvent(event));
  }

  onFrame(frame: Frame): void {
    for (const reporter of [...this.reporters]) if (reporter.onFrame) this.guard(() => reporter.onFrame!(frame));
  }

  /** Closes every reporter once, in the order they were added. */
  async close(end: RunEnd): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const reporter of [...this.reporters]) {
      try {
        await reporter.close?.(end);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private guard(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.onError(error);
    }
  }
}
