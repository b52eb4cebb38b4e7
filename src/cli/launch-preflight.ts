/**
 * Typos in a plain launch, `ccc [provider] [--] [claude args…]`: a near miss of one of ccc's own
 * options (`--supervisr`) or, in place of a provider nobody configured, of a command (`ccc confg`)
 * is a "did you mean" error (exit 2) before claude starts.
 */
import { CccError, isCccError } from '../errors.js';
import { nearMiss, rejectOptionTypos } from './option-typos.js';

/** ccc's options in a plain launch; everything else before `--` is claude's. */
const LAUNCH_OPTIONS = ['--supervisor', '--version', '--help'];

export function rejectLaunchOptionTypos(words: readonly string[]): void {
  rejectOptionTypos(words, LAUNCH_OPTIONS, () => false);
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
    if (!isCccError(error) || error.code !== 'USAGE' || error.data.provider !== word || meant === undefined) throw error;
    const known = Array.isArray(error.data.known) && error.data.known.length > 0 ? ` (providers: ${error.data.known.join(', ')})` : '';
    throw new CccError('USAGE', `Unknown command or provider "${word}". Did you mean \`ccc ${meant}\`? See \`ccc --help\` for the commands${known}.`, {
      data: { ...error.data, command: word, suggestion: meant },
    });
  }
}
