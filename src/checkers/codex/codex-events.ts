/**
 * What one `codex exec --json` run said, read from its JSONL events (pinned on the real codex in
 * test/checkers/codex/): `item.completed` of a `command_execution` is a command the reviewer ran,
 * with its exit code and output (`/bin/bash -lc '…'` around what the model asked); of an
 * `agent_message`, its answer (the last one is the verdict, in the shape `--output-schema` asked
 * for); `turn.completed` carries the turn's token usage and no cost; `turn.failed` ends a turn
 * that failed, after codex's own retries (its `error` events say "Reconnecting… n/5" meanwhile).
 * A failed turn can end with exit code 0 (a missing API key does), so the events, not the exit
 * code, say whether the review took place.
 */
import type { Frame } from '../../frames/frame.js';

/** A command codex ran, as its event reports it. */
export interface CodexCommand {
  /** What the model asked to run (the shell wrapper codex adds is removed). */
  command: string;
  /** Null when it ended without one (still running when the turn ended, killed). */
  exitCode: number | null;
  output: string;
}

/** The turn's tokens as codex counts them: `input` includes `cachedInput`. */
export interface CodexTokens {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
}

export interface CodexTurn {
  commands: CodexCommand[];
  /** The last answer of the agent (the verdict object as text). */
  answer?: string;
  tokens?: CodexTokens;
  /** The turn failed with this message (`turn.failed`, or the last `error` event when the run ended without a turn). */
  failure?: string;
  /** Retries codex made (its "Reconnecting…" events). */
  retries: number;
  /** A command failed because codex's kernel sandbox could not start (bubblewrap refused). */
  sandboxFailure?: string;
}

export interface CodexEventReader {
  onEvent(event: Frame): void;
  turn(): CodexTurn;
}

export function codexEventReader(): CodexEventReader {
  const turn: CodexTurn = { commands: [], retries: 0 };
  let lastError: string | undefined;
  let completed = false;
  return {
    onEvent(event) {
      if (event.type === 'item.completed') readItem(turn, event.item);
      else if (event.type === 'turn.completed') {
        completed = true;
        turn.tokens = addTokens(turn.tokens, tokensOf(event.usage));
      } else if (event.type === 'turn.failed') turn.failure = messageOf(event.error) ?? 'the turn failed';
      else if (event.type === 'error') {
        const message = typeof event.message === 'string' ? event.message : undefined;
        if (message && /^Reconnecting\.\.\./.test(message)) turn.retries += 1;
        else if (message) lastError = message;
      }
    },
    turn: () => (completed || turn.failure || !lastError ? { ...turn } : { ...turn, failure: lastError }),
  };
}

function readItem(turn: CodexTurn, item: unknown): void {
  if (!item || typeof item !== 'object') return;
  const it = item as Record<string, unknown>;
  if (it.type === 'agent_message' && typeof it.text === 'string') turn.answer = it.text;
  if (it.type !== 'command_execution' || typeof it.command !== 'string') return;
  const output = typeof it.aggregated_output === 'string' ? it.aggregated_output : '';
  const exitCode = Number.isInteger(it.exit_code) ? (it.exit_code as number) : null;
  turn.commands.push({ command: unwrapShell(it.command), exitCode, output });
  const refused = /^bwrap: .*$/m.exec(output);
  if (refused && exitCode !== 0) turn.sandboxFailure ??= refused[0];
}

/** `/bin/bash -lc 'npm test'` → `npm test`: the command as the model wrote it. */
function unwrapShell(command: string): string {
  const m = /^(?:\/[\w./-]*\/)?(?:bash|sh|zsh|dash) -l?c (.+)$/s.exec(command);
  if (!m) return command;
  const quoted = m[1]!;
  if (/^'[^']*'$/s.test(quoted)) return quoted.slice(1, -1);
  // Single quotes inside the command are written '"'"' or '\'' by the quoting codex uses.
  if (quoted.startsWith("'") && quoted.endsWith("'")) return quoted.slice(1, -1).replace(/'(?:"'"|\\')'/g, "'");
  if (/^"(?:[^"\\]|\\.)*"$/s.test(quoted)) return quoted.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  return quoted;
}

function tokensOf(usage: unknown): CodexTokens {
  const u = (usage && typeof usage === 'object' ? usage : {}) as Record<string, unknown>;
  return {
    input: count(u.input_tokens),
    cachedInput: count(u.cached_input_tokens),
    cacheWrite: count(u.cache_write_input_tokens),
    output: count(u.output_tokens),
  };
}

function addTokens(a: CodexTokens | undefined, b: CodexTokens): CodexTokens {
  if (!a) return b;
  return { input: a.input + b.input, cachedInput: a.cachedInput + b.cachedInput, cacheWrite: a.cacheWrite + b.cacheWrite, output: a.output + b.output };
}

function messageOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string'
    ? (error as { message: string }).message
    : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
