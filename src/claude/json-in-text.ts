/**
 * Finds a JSON object in what a model wrote as text: in fences or bare, amid prose. `--json-schema`
 * structured output is the normal path for every answer ccc asks claude for, but it has failed
 * across claude releases (docs/design/claude-facts.md), so the `result` text is always searched as a fallback.
 * The object that starts last wins: models put their final answer at the end.
 */

/** Only the tail of a long answer is searched: the answer comes last. */
const MAX_SEARCH_CHARS = 256 * 1024;
/** Candidate `{` positions tried, and the longest object considered: bounds the work on garbage. */
const MAX_CANDIDATES = 500;
const MAX_OBJECT_CHARS = 64 * 1024;

/**
 * The last object in `fullText` that `accept` turns into a value (it returns undefined to pass).
 * Never throws.
 */
export function lastJsonObject<T>(fullText: string, accept: (value: unknown) => T | undefined): T | undefined {
  const text = fullText.length > MAX_SEARCH_CHARS ? fullText.slice(-MAX_SEARCH_CHARS) : fullText;
  let candidates = 0;
  for (let start = text.lastIndexOf('{'); start !== -1 && candidates < MAX_CANDIDATES; start = text.lastIndexOf('{', start - 1)) {
    candidates += 1;
    const end = matchingBrace(text, start);
    if (end !== -1) {
      const parsed = tryJson(text.slice(start, end + 1));
      const accepted = parsed === undefined ? undefined : accept(parsed);
      if (accepted !== undefined) return accepted;
    }
    if (start === 0) break;
  }
  return undefined;
}

/** True for a JSON object (not an array, not null): the usual first test of an `accept`. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Index of the `}` that closes the `{` at `start`, skipping JSON strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  const limit = Math.min(text.length, start + MAX_OBJECT_CHARS);
  for (let i = start; i < limit; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
