/**
 * A notification as the request a webhook takes, in the shape its service documents:
 *
 * | format | request |
 * |---|---|
 * | `slack` | POST the URL, `{"text": …}` (incoming webhooks; Mattermost and Rocket.Chat take it too) |
 * | `discord` | POST the URL, `{"content": …, "allowed_mentions": {"parse": []}}`, content at most 2000 characters |
 * | `ntfy` | POST the server's root with `{"topic", "title", "message", "priority", "tags"}` (ntfy's JSON publishing: UTF-8 titles, no header encoding) |
 * | `json` | POST the URL, the notification's fields and a `text` line (for a receiver of one's own) |
 *
 * `auto` picks by the URL's host: `hooks.slack.com` is Slack, `discord.com`'s (or
 * `discordapp.com`'s) `/api/webhooks/` is Discord, `ntfy.sh` or a host named `ntfy.…` is ntfy,
 * anything else `json`. User and password in the URL become a Basic `Authorization` header (a
 * protected ntfy topic), since fetch refuses a URL that holds them.
 */
import type { Notification } from './notification.js';
import { discordDefused, safeLine, safeParts, slackEscaped } from './notification-text.js';

export type WebhookFormat = 'slack' | 'discord' | 'ntfy' | 'json';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The format a URL gets under `auto`. */
export function detectFormat(url: string): WebhookFormat {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'json';
  }
  const host = parsed.hostname.toLowerCase();
  if (host === 'hooks.slack.com') return 'slack';
  if (/^(?:(?:ptb|canary)\.)?discord(?:app)?\.com$/.test(host) && parsed.pathname.startsWith('/api/webhooks/')) return 'discord';
  if (host === 'ntfy.sh' || host.startsWith('ntfy.')) return 'ntfy';
  return 'json';
}

export function formatOf(url: string, configured: WebhookFormat | 'auto'): WebhookFormat {
  return configured === 'auto' ? detectFormat(url) : configured;
}

/** Discord's limit on a message's content. */
const DISCORD_CONTENT_CHARS = 2000;

const NTFY_PRIORITY: Record<Notification['priority'], number> = { low: 2, normal: 3, high: 4 };

/** ntfy's tags that its apps show as emoji, by what happened. */
function ntfyTags(n: Notification): string[] {
  if (n.event === 'waiting') return ['hourglass_flowing_sand', 'ccc'];
  if (n.event === 'stuck') return ['no_entry', 'ccc'];
  if (n.event === 'cap') return ['stop_sign', 'ccc'];
  return [n.outcome === 'verified' ? 'white_check_mark' : n.outcome === 'failed' ? 'x' : 'warning', 'ccc'];
}

export function webhookRequest(url: string, format: WebhookFormat, n: Notification): WebhookRequest {
  const { target, headers } = withoutCredentials(url);
  const { title, body } = safeParts(n);
  const json = { 'content-type': 'application/json', ...headers };
  switch (format) {
    case 'slack':
      return { url: target, headers: json, body: JSON.stringify({ text: slackEscaped(`*${title}*\n${body}`) }) };
    case 'discord': {
      const content = discordDefused(`**${title}**\n${body}`);
      return {
        url: target,
        headers: json,
        body: JSON.stringify({
          content: content.length > DISCORD_CONTENT_CHARS ? `${content.slice(0, DISCORD_CONTENT_CHARS - 1)}…` : content,
          allowed_mentions: { parse: [] },
        }),
      };
    }
    case 'ntfy': {
      const { root, topic } = ntfyTopic(target);
      return {
        url: root,
        headers: json,
        body: JSON.stringify({ topic, title, message: body, priority: NTFY_PRIORITY[n.priority], tags: ntfyTags(n) }),
      };
    }
    case 'json':
      return { url: target, headers: json, body: JSON.stringify(jsonPayload(n, title, body)) };
  }
}

/** The generic shape: the fields a receiver of one's own can route on, each inert, and a `text` to show. */
function jsonPayload(n: Notification, title: string, body: string): Record<string, unknown> {
  const { lines: _lines, cwd: _cwd, title: _title, ...fields } = n;
  const inert = { ...(n.task === undefined ? {} : { task: safeLine(n.task) }), ...(n.evidence === undefined ? {} : { evidence: safeLine(n.evidence) }) };
  return { ...fields, ...inert, title, text: `${title}\n${body}`, lines: body.split('\n') };
}

/** ntfy publishes JSON at the server's root (`https://ntfy.sh/`, or a self-hosted one's base path) and names the topic in the body. */
function ntfyTopic(url: string): { root: string; topic: string } {
  const parsed = new URL(url);
  const parts = parsed.pathname.split('/').filter(Boolean);
  const topic = decodeURIComponent(parts.pop() ?? '');
  parsed.pathname = `/${parts.map((p) => `${p}/`).join('')}`;
  return { root: parsed.href, topic };
}

/** A URL with `user:password@` as a Basic Authorization header instead. */
function withoutCredentials(url: string): { target: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { target: url, headers: {} };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { target: parsed.href, headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } };
}
