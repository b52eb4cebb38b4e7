/**
 * A Bash command as the reviewer's guard sees it: the simple commands it runs, split on `&&`, `||`,
 * `;` and `|`, or the reason it cannot be judged. Parsing uses `shell-quote`; what that library
 * does not model (backticks, several lines, variable and command substitution, process
 * substitution, redirections into files, background jobs) makes the command unjudgeable, so the
 * guard refuses it rather than guess. Output plumbing that writes no file (`2>&1`, `>/dev/null`)
 * is allowed.
 */
import { parse, type ParseEntry } from 'shell-quote';
import { errorText } from '../../errors.js';

export interface Segment {
  /** The words of one simple command, quotes removed. */
  words: string[];
  /** The operator that joins it to the previous command (`&&`, `||`, `;`, `|`); none for the first. */
  after?: string;
}

export type ParsedCommand = { ok: true; segments: Segment[] } | { ok: false; reason: string };

const SEPARATORS = new Set(['&&', '||', ';', '|']);

export function parseBashCommand(command: string): ParsedCommand {
  if (/[`\r\n]/.test(command)) return { ok: false, reason: 'it uses backticks or more than one line' };
  let entries: ParseEntry[];
  try {
    entries = parse(withoutHarmlessRedirections(command), (name) => ({ op: `$${name}` }));
  } catch (error) {
    return { ok: false, reason: `it cannot be parsed (${errorText(error)})` };
  }
  const segments: Segment[] = [];
  let current: Segment = { words: [] };
  for (const token of entries) {
    if (typeof token === 'string') {
      current.words.push(token);
      continue;
    }
    if ('comment' in token) continue;
    if (token.op === 'glob') {
      current.words.push(token.pattern);
      continue;
    }
    if (!SEPARATORS.has(token.op)) return { ok: false, reason: `it uses \`${token.op.startsWith('$') ? '$' : token.op}\`` };
    if (current.words.length === 0) return { ok: false, reason: `\`${token.op}\` has no command before it` };
    segments.push(current);
    current = { words: [], after: token.op };
  }
  if (current.words.length === 0) return segments.length === 0 ? { ok: false, reason: 'it is empty' } : { ok: false, reason: 'it ends with an operator' };
  segments.push(current);
  return { ok: true, segments };
}

/**
 * `2>&1`, `>&2`, `2>/dev/null`, `&>/dev/null`: they move or drop output and write no file. They are
 * removed from the text before parsing, because shell-quote does not keep the spacing that tells
 * `2>&1` (a redirection) from `2 >&1` (an argument, then a redirection).
 */
const HARMLESS_REDIRECTION = /(^|\s)(?:[12]?>&[12]|(?:[12]|&)?>\s*\/dev\/null)(?=\s|$|[;&|])/g;

function withoutHarmlessRedirections(command: string): string {
  return command.replace(HARMLESS_REDIRECTION, '$1');
}
