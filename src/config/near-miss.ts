/**
 * "Did you mean": the name ccc knows that a word is a near miss of, for an error about a typo (an
 * option, a command, a checker's name). A leaf of its own, so that only the paths that read such a
 * word load leven (`ccc --version` does not).
 */
import { closestMatch } from 'leven';

/** Edits that still make a near miss: 1 for short names, 2 from 6 characters on (dashes aside). */
function maxEdits(word: string): number {
  return word.replace(/^-+/, '').length >= 6 ? 2 : 1;
}

/** The candidate `word` is a near miss of, if any (never the word itself). */
export function nearMiss(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.includes(word)) return undefined;
  return closestMatch(word, candidates, { maxDistance: maxEdits(word) });
}
