/**
 * Typos in a plain launch, `ccc [provider] [--] [claude args…]`: a near miss of one of ccc's own
 * options (`--supervisr`) or, in place of a provider nobody configured, of a command (`ccc confg`)
 * is a "did you mean" error (exit 2) before claude starts. So is an option of the supervised modes
 * without `--supervisor` (`ccc --max-iterations 3`): claude would stop at it with "unknown option".
 */
import { claudeOption, readClaudeArgs } from '../claude/claude-options.js';
import { CccError, isCccError } from '../errors.js';
import { nearMiss } from '../config/near-miss.js';
import { rejectOptionTypos } from './option-typos.js';
import { supervisorOptionNames } from './supervisor-args.js';

/** ccc's options in a plain launch; everything else before `--` is claude's. */
const LAUNCH_OPTIONS = ['--supervisor', '--version', '--help'];

export function rejectLaunchOptionTypos(words: readonly string[]): void {
  rejectOptionTypos(words, LAUNCH_OPTIONS, () => false);
  rejectSupervisorOnlyOptions(words);
}

/** `ccc [provider] --max-iterations 3 …` → "did you mean `ccc [provider] --supervisor --max-iterations 3 …`?". */
function rejectSupervisorOnlyOptions(words: readonly string[]): void {
  const end = words.indexOf('--');
  const before = end === -1 ? words : words.slice(0, end);
  for (const word of readClaudeArgs(before)) {
    if (word.kind !== 'option' || claudeOption(word.name) || !supervisorOptionNames.includes(word.name)) continue;
    const provider = words[0] !== undefined && !words[0].startsWith('-') ? [words[0]] : [];
    const suggestion = ['ccc', ...provider, '--supervisor', ...words.slice(provider.length)].map(quoteWord).join(' ');
    throw new CccError('USAGE', `${word.name} is an option of supervised runs. Did you mean \`${suggestion}\`? See \`ccc --supervisor --help\`.`, {
      data: { option: word.name, suggestion },
    });
  }
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs the launch; an unknown provider named on the command line that is a near miss of a command
 * becomes "did you mean `ccc <command>`", keeping the provider advice.
 */
export async function withCommandSuggestion<T>(word: string | undefined, commands: readonly string[], launch: () => Promise<T>): Promise<T> {
  try {
    return await launch();
  } catch (error) {
    const meant = word === undefined ? undefined : nearMiss(word, commands);
    if (!isCccError(error, 'USAGE') || error.data.provider !== word || meant === undefined) throw error;
    const known = error.data.known && error.data.known.length > 0 ? ` (providers: ${error.data.known.join(', ')})` : '';
    throw new CccError('USAGE', `Unknown command or provider "${word}". Did you mean \`ccc ${meant}\`? See \`ccc --help\` for the commands${known}.`, {
      data: { ...error.data, command: word, suggestion: meant },
    });
  }
}
