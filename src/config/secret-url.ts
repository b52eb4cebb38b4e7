/**
 * A webhook URL is a credential: whoever has a Slack or Discord webhook's path, or an ntfy topic's
 * name, can post to it. Wherever ccc shows one (`ccc config`, a config error, a log line, a
 * delivery warning) it shows only its scheme and host. A leaf: the config's validation and
 * display and the notifier use it.
 */

/** Config keys whose values are webhook URLs, by their dotted path. */
export const SECRET_URL_KEYS: ReadonlySet<string> = new Set(['notify.webhook_url']);

/** `https://hooks.slack.com/…` for any URL; `(a URL, hidden)` for text that is not one. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '(a URL, hidden)';
  }
}

/** `text` with every occurrence of `url` (and of its parsed form, which may differ in case or escapes) replaced by its redacted form. */
export function withoutUrl(text: string, url: string | undefined): string {
  if (!url) return text;
  let out = text.split(url).join(redactedUrl(url));
  try {
    const href = new URL(url).href;
    out = out.split(href).join(redactedUrl(url));
  } catch {
    // not a URL: nothing more to hide
  }
  return out;
}
