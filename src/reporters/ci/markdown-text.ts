/**
 * Text from outside ccc (a task, a model's feedback, a path) made inert for a Markdown page such as
 * a GitHub job summary: it reads as the same characters and can change nothing else on the page.
 * No raw HTML (`<`, `>`, `&` become entities), no Markdown syntax (every other ASCII punctuation
 * character is backslash-escaped, CommonMark's rule for a literal one, so no link, image, code
 * span or emphasis starts), and no table break (`|` escaped, line breaks joined into one line).
 * Control characters and the invisible bidirectional overrides, which could make the text read
 * differently from what it is, become spaces.
 */
const CONTROLS_AND_BIDI = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const PUNCTUATION = /[!"#$%'()*+,\-./:;=?@[\\\]^_`{|}~]/g;

/** One line of inert Markdown, at most `maxChars` characters of the text (then `…`). */
export function markdownText(text: string, maxChars = Infinity): string {
  let line = text.replace(CONTROLS_AND_BIDI, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length > maxChars) line = `${chars.slice(0, maxChars).join('')}…`;
  return line
    .replace(PUNCTUATION, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
