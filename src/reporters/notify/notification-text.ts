/**
 * A notification's text made safe for where it goes. Much of it is the model's (the task, the
 * feedback, the commands its reviewer ran) and an agent could write anything there: every control
 * character and every bidirectional override becomes a space (no escape sequence reaches a terminal
 * that shows a log of it, no text reads backwards), each line and the whole are bounded, and each
 * target's own markup is defused: Slack's `<!everyone>`, `<@U…>` and `<url|label>`, Discord's
 * `@everyone`, `@here` and `<@…>` (also refused by `allowed_mentions`), the desktop notifier's body
 * markup (`<a href>`, `<img>`).
 */
import { inertText } from '../../pty/inert-text.js';
import { clip } from '../../value-text.js';
import type { Notification } from './notification.js';

/** Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069): text that reads other than it is. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** The most characters of one line, and of a whole message (under Discord's 2000 for its content, with room for the title). */
const LINE_CHARS = 300;
const MESSAGE_CHARS = 1800;
const TITLE_CHARS = 150;

/** One line, inert and bounded. */
export function safeLine(text: string, max = LINE_CHARS): string {
  return clip(
    inertText(text)
      .replace(/[\n\t]/g, ' ')
      .replace(BIDI, ' ')
      .trim(),
    max,
  );
}

/** The notification's title and lines, each inert and bounded, the lines bounded together too. */
export function safeParts(n: Notification): { title: string; body: string } {
  const lines = n.lines.map((line) => safeLine(line));
  return { title: safeLine(n.title, TITLE_CHARS), body: clip(lines.join('\n'), MESSAGE_CHARS) };
}

/** Slack's mrkdwn: `&`, `<` and `>` escaped, as its docs ask, which leaves no mention, channel ping or link to inject. */
export function slackEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Discord: a zero-width space after each `@` and after each `<` of a mention, so no text pings (belt and braces with `allowed_mentions`). */
export function discordDefused(text: string): string {
  return text.replace(/@/g, '@\u200b').replace(/<([@#:])/g, '<\u200b$1');
}

/** A desktop notification's body may be read as markup (freedesktop's `body-markup`): `&`, `<`, `>` as entities. */
export function markupEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
