/** The observer logs through the same small interface checkers get; the session passes its own. */
import type { CheckerLogger } from '../checkers/types.js';

export type ObserverLogger = CheckerLogger;

export const silentLogger: ObserverLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
