/**
 * `--json`: stdout carries the run as JSON lines, ccc's events and the agent's frames
 * (`{ kind: 'frame', frame }`), exact (a reader parses them; nothing is shown to a terminal as is).
 * `ccc report` reads the same lines back (src/reporters/ci/event-log.ts) and folds them as the CI reports fold the live events (src/reporters/ci/run-record.ts).
 */
import type { Reporter } from './reporter.js';

export function jsonReporter(stdout: NodeJS.WritableStream): Reporter {
  return {
    onEvent: (e) => void stdout.write(JSON.stringify(e) + '\n'),
    onFrame: (frame) => void stdout.write(JSON.stringify({ kind: 'frame', frame }) + '\n'),
  };
}
