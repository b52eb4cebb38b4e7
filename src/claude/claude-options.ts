/**
 * claude's command-line options and how many words each takes, as its `--help` lists them
 * (test/claude/claude-options.test.ts compares this table with the real `claude --help`). ccc
 * needs it to read a user's claude arguments word by word: without it, the value of
 * `--append-system-prompt "-c"` or of `--add-dir a b` could be taken for an option or a prompt.
 */

/** `none`: a flag; `required`: one value; `optional`: a value unless the next word is an option; `variadic`: every word up to the next option. */
export type ClaudeOptionArity = 'none' | 'required' | 'optional' | 'variadic';

export interface ClaudeOption {
  /** Every spelling, long first (`--continue`, `-c`). */
  names: readonly string[];
  arity: ClaudeOptionArity;
}

const TABLE: ReadonlyArray<readonly [string, ClaudeOptionArity]> = [
  ['--add-dir', 'variadic'],
  ['--agent', 'required'],
  ['--agents', 'required'],
  ['--allow-dangerously-skip-permissions', 'none'],
  ['--allowedTools,--allowed-tools', 'variadic'],
  ['--append-system-prompt', 'required'],
  ['--autocompact', 'required'],
  ['--ax-screen-reader', 'none'],
  ['--bg,--background', 'none'],
  ['--bare', 'none'],
  ['--betas', 'variadic'],
  ['--brief', 'none'],
  ['--chrome', 'none'],
  ['--cloud', 'optional'],
  ['--continue,-c', 'none'],
  ['--dangerously-skip-permissions', 'none'],
  ['--debug,-d', 'optional'],
  ['--debug-file', 'required'],
  ['--desktop', 'none'],
  ['--disable-slash-commands', 'none'],
  ['--disallowedTools,--disallowed-tools', 'variadic'],
  ['--effort', 'required'],
  ['--environment', 'required'],
  ['--exclude-dynamic-system-prompt-sections', 'none'],
  ['--fallback-model', 'required'],
  ['--file', 'variadic'],
  ['--fork-session', 'none'],
  ['--forward-subagent-text', 'none'],
  ['--from-pr', 'optional'],
  ['--help,-h', 'none'],
  ['--ide', 'none'],
  ['--include-hook-events', 'none'],
  ['--include-partial-messages', 'none'],
  ['--input-format', 'required'],
  ['--json-schema', 'required'],
  ['--max-budget-usd', 'required'],
  ['--mcp-config', 'variadic'],
  ['--model', 'required'],
  ['--name,-n', 'required'],
  ['--no-chrome', 'none'],
  ['--no-session-persistence', 'none'],
  ['--output-format', 'required'],
  ['--permission-mode', 'required'],
  ['--permission-prompts', 'required'],
  ['--plugin-dir', 'required'],
  ['--plugin-url', 'required'],
  ['--print,-p', 'none'],
  ['--prompt-suggestions', 'optional'],
  ['--remote-control', 'optional'],
  ['--remote-control-session-name-prefix', 'required'],
  ['--replay-user-messages', 'none'],
  ['--restricted', 'none'],
  ['--resume,-r', 'optional'],
  ['--safe-mode', 'none'],
  ['--session-id', 'required'],
  ['--setting-sources', 'required'],
  ['--settings', 'required'],
  ['--strict-mcp-config', 'none'],
  ['--system-prompt', 'required'],
  ['--system-prompt-snapshot', 'required'],
  ['--teleport', 'optional'],
  ['--tmux', 'none'],
  ['--tools', 'variadic'],
  ['--verbose', 'none'],
  ['--version,-v', 'none'],
  ['--worktree,-w', 'optional'],
];

export const CLAUDE_OPTIONS: readonly ClaudeOption[] = TABLE.map(([names, arity]) => ({ names: names.split(','), arity }));

const BY_NAME = new Map<string, ClaudeOption>(CLAUDE_OPTIONS.flatMap((option) => option.names.map((name) => [name, option] as const)));

export function claudeOption(name: string): ClaudeOption | undefined {
  return BY_NAME.get(name);
}

/** One word group of a claude command line: an option with its values, or a positional word. */
export type ClaudeWord =
  | { kind: 'option'; name: string; /** The long spelling, for comparisons. */ canonical: string; words: string[]; values: string[]; known: boolean }
  | { kind: 'positional'; words: string[] };

/**
 * Splits claude arguments into options with their values and positional words, as claude's parser
 * reads them: `--name=value`, short clusters (`-cd` is `-c -d`; `-rID` is `-r ID`), optional
 * values only when the next word is not an option, variadic values up to the next option, and
 * everything after `--` positional. An option claude does not list is taken as a flag.
 */
export function readClaudeArgs(args: readonly string[]): ClaudeWord[] {
  const out: ClaudeWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push({ kind: 'positional', words: args.slice(i) });
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.push({ kind: 'positional', words: [arg] });
      continue;
    }
    if (!arg.startsWith('--') && arg.length > 2) {
      const expanded = expandCluster(arg);
      if (expanded) {
        out.push(...expanded.words);
        if (expanded.needsValue) i = takeValues(out[out.length - 1] as Extract<ClaudeWord, { kind: 'option' }>, args, i);
        continue;
      }
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const option = claudeOption(name);
    const word: Extract<ClaudeWord, { kind: 'option' }> = {
      kind: 'option',
      name,
      canonical: option?.names[0] ?? name,
      words: [arg],
      values: [],
      known: option !== undefined,
    };
    out.push(word);
    if (eq !== -1) {
      word.values.push(arg.slice(eq + 1));
      continue;
    }
    i = takeValues(word, args, i);
  }
  return out;
}

/** Reads the values of `word` (at `args[i]`) after it; returns the index of its last word. */
function takeValues(word: Extract<ClaudeWord, { kind: 'option' }>, args: readonly string[], i: number): number {
  const arity = claudeOption(word.name)?.arity ?? 'none';
  const isValue = (next: string | undefined) => next !== undefined && next !== '--' && !next.startsWith('-');
  if (arity === 'required' && i + 1 < args.length && args[i + 1] !== '--') {
    word.words.push(args[i + 1]!);
    word.values.push(args[i + 1]!);
    return i + 1;
  }
  if (arity === 'optional' && isValue(args[i + 1])) {
    word.words.push(args[i + 1]!);
    word.values.push(args[i + 1]!);
    return i + 1;
  }
  if (arity === 'variadic') {
    while (isValue(args[i + 1])) {
      word.words.push(args[i + 1]!);
      word.values.push(args[i + 1]!);
      i++;
    }
  }
  return i;
}

/**
 * `-cd` → `-c`, `-d`; `-rID` → `-r ID`; each part written out on its own, so that dropping one
 * keeps the others. Undefined when a letter before any value is not one of claude's short options.
 */
function expandCluster(arg: string): { words: ClaudeWord[]; needsValue: boolean } | undefined {
  const words: ClaudeWord[] = [];
  for (let j = 1; j < arg.length; j++) {
    const name = `-${arg[j]}`;
    const option = claudeOption(name);
    if (!option) return undefined;
    const word: Extract<ClaudeWord, { kind: 'option' }> = { kind: 'option', name, canonical: option.names[0]!, words: [name], values: [], known: true };
    words.push(word);
    if (option.arity !== 'none') {
      const rest = arg.slice(j + 1);
      if (rest) {
        word.words.push(rest);
        word.values.push(rest);
      }
      return { words, needsValue: rest === '' };
    }
  }
  return { words, needsValue: false };
}
