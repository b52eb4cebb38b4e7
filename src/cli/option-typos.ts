/**
 * "Did you mean": a word on the command line that is almost one of ccc's options or commands is a
 * typo, an error (exit 2) before claude starts, rather than something passed on to claude.
 */
import { CccError } from '../errors.js';
import { nearMiss } from '../config/near-miss.js';

/**
 * Throws a USAGE error for the first long option before `--` that is a near miss of `known`
 * (its value after `=` aside). `takesValue` says which known options take the next word as a value.
 */
export function rejectOptionTypos(words: readonly string[], known: readonly string[], takesValue: (name: string, next?: string) => boolean): void {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') return;
    if (takesValue(word, words[i + 1])) {
      i++;
      continue;
    }
    if (!word.startsWith('--')) continue;
    const name = word.split('=', 1)[0]!;
    const meant = nearMiss(name, known);
    if (meant !== undefined) {
      throw new CccError('USAGE', `Unknown option ${name}. Did you mean ${meant}? An option meant for claude goes after --. See \`ccc --help\`.`, {
        data: { option: name, suggestion: meant },
      });
    }
  }
}
