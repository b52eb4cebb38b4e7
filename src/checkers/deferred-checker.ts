/**
 * A built-in checker whose module loads at its first check, not at the launch: the pipeline is
 * built (and its configuration refused with exit 2) before the agent starts, but the reviewer's
 * code (the claude runner, stream-json framing, verdict parsing) is not needed until the first
 * stop (docs/design/architecture.md, "Start-up"). Only for checkers without lifecycle hooks: a wrapper cannot know them before
 * the module is loaded.
 */
import type { Checker } from './types.js';

export function deferredChecker(name: string, load: () => Promise<Checker>): Checker {
  let loaded: Promise<Checker> | undefined;
  return {
    name,
    check: async (ctx, signal) => (await (loaded ??= load())).check(ctx, signal),
  };
}
