/**
 * When are two pieces of checker feedback "essentially the same"? Reviewers rephrase a little
 * and tools print changing numbers (durations, counts, line numbers, temp paths), so equality is
 * too strict. The rule, documented in docs/running.md ("Spending guards"):
 *   1. normalize: lowercase; every number becomes `#`; every path-like token (with a `/`) becomes
 *      `<path>`; every other non-letter character is a separator;
 *   2. compare the sets of words: Jaccard similarity (shared / all distinct) of at least 0.8.
 * Two empty feedbacks are the same.
 */
const SIMILARITY_THRESHOLD = 0.8;

export function feedbackTokens(feedback: string): string[] {
  const normalized = feedback
    .toLowerCase()
    .replace(/\S*\/\S*/g, ' <path> ')
    .replace(/\d+(?:[.,:]\d+)*/g, ' # ');
  const tokens = normalized.split(/[^\p{L}#<>]+/u).filter((t) => t !== '');
  return [...new Set(tokens)].sort();
}

function similarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  return shared / (left.size + right.size - shared);
}

export function sameFeedback(a: readonly string[], b: readonly string[]): boolean {
  return similarity(a, b) >= SIMILARITY_THRESHOLD;
}
