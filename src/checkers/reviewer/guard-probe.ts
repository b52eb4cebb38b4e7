/**
 * Proof that claude loaded the reviewer's guard before the review can call a tool. The guard is a
 * hook from ccc's `--settings`; claude drops every such hook under `--bare` and when settings say
 * `disableAllHooks` or (managed) `allowManagedHooksOnly`, and nothing would notice: the reviewer
 * would review with whatever the user's settings allow (docs/design/claude-facts.md).
 *
 * The same settings carry a SessionStart hook that writes a per-launch nonce to stderr (stdout
 * would become context for the model and change the request). With `--include-hook-events`
 * claude reports that hook's `hook_response` frame before its `system/init` frame, and the first
 * model request comes a few milliseconds after init: a run whose init frame arrives without the
 * nonce seen is unguarded.
 *
 * guard-check.ts reads these frames in a claude run that can reach no model and call no tool,
 * before any reviewer starts: that decides it. The review's own frames are watched the same way,
 * for settings changed during the run, and such a review is SIGKILLed at init; SIGTERM would not
 * do, claude shutting down still sends its request (test/claude/signal-at-init.test.ts). That
 * second watch is a race on a loaded machine, which is why it is not the first.
 */
import { randomUUID } from 'node:crypto';
import type { Frame } from '../../frames/frame.js';

export interface GuardProbe {
  nonce: string;
  /** The SessionStart hook entry for the reviewer's `--settings`. */
  hook: { hooks: Array<{ type: 'command'; command: string; timeout: number }> };
}

export function guardProbe(nonce = `ccc-reviewer-guard-${randomUUID()}`): GuardProbe {
  return { nonce, hook: { hooks: [{ type: 'command', command: `echo ${nonce} >&2`, timeout: 30 }] } };
}

export type GuardState = 'waiting' | 'active' | 'missing';

/** Follows the reviewer's frames: `active` once the probe answered, `missing` if init came first. */
export function guardWatch(nonce: string): { onFrame(frame: Frame): GuardState; state(): GuardState } {
  let state: GuardState = 'waiting';
  return {
    onFrame(frame) {
      if (state !== 'waiting') return state;
      if (frame.type === 'system' && frame.subtype === 'hook_response' && frame.hook_event === 'SessionStart' && probeAnswered(frame, nonce)) state = 'active';
      else if ((frame.type === 'system' && frame.subtype === 'init') || frame.type === 'assistant' || frame.type === 'result') state = 'missing';
      return state;
    },
    state: () => state,
  };
}

function probeAnswered(frame: Frame, nonce: string): boolean {
  return [frame.stderr, frame.output].some((text) => typeof text === 'string' && text.includes(nonce));
}

export const UNGUARDED_MESSAGE =
  "the reviewer's guard did not load, so the review was stopped before it could call a tool: claude ran without the hooks of ccc's --settings " +
  '(`--bare` in the claude command or a wrapper, or `disableAllHooks` / `allowManagedHooksOnly` in your or your managed settings). ' +
  'Remove `--bare` and let settings hooks run for this project, or choose another checker (`supervisor.checkers`)';
