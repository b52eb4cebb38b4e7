/**
 * The webhook requests against the shapes each service documents (Slack incoming webhooks: a
 * `text`; Discord's execute-webhook: `content` of at most 2000 characters, `allowed_mentions`;
 * ntfy's JSON publishing: POST to the root with `topic`, `title`, `message`, `priority` 1–5,
 * `tags`), the format picked by host, and model text made inert whatever it holds (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Notification } from '../../../src/reporters/notify/notification.js';
import { detectFormat, formatOf, webhookRequest } from '../../../src/reporters/notify/webhook-payload.js';

/** https://api.slack.com/messaging/webhooks: a JSON body with `text` (mrkdwn, `&<>` escaped). */
const slackBody = z.object({ text: z.string().min(1).max(40_000) }).strict();
/** https://discord.com/developers/docs/resources/webhook#execute-webhook: `content` up to 2000 characters. */
const discordBody = z.object({ content: z.string().min(1).max(2000), allowed_mentions: z.object({ parse: z.array(z.string()).length(0) }).strict() }).strict();
/** https://docs.ntfy.sh/publish/#publish-as-json */
const ntfyBody = z
  .object({ topic: z.string().min(1), title: z.string(), message: z.string(), priority: z.number().int().min(1).max(5), tags: z.array(z.string()) })
  .strict();

function notification(over: Partial<Notification> = {}): Notification {
  return {
    event: 'end',
    outcome: 'verified',
    title: 'ccc: done, verified (app)',
    lines: ['Task: build it', 'Evidence: verified by: npm test (4 tests)', 'Cost: spent $0.25'],
    priority: 'normal',
    project: 'app',
    cwd: '/home/me/app',
    task: 'build it',
    evidence: 'verified by: npm test (4 tests)',
    exit_code: 0,
    at: '2026-01-01T10:00:00.000Z',
    ...over,
  };
}

describe('webhook payloads', () => {
  it('picks the format by host under auto, and as configured otherwise', () => {
    expect(detectFormat('https://hooks.slack.com/services/T0/B0/XXXX')).toBe('slack');
    expect(detectFormat('https://discord.com/api/webhooks/123/abc')).toBe('discord');
    expect(detectFormat('https://discordapp.com/api/webhooks/123/abc')).toBe('discord');
    expect(detectFormat('https://canary.discord.com/api/webhooks/123/abc')).toBe('discord');
    expect(detectFormat('https://discord.com/channels/1/2')).toBe('json');
    expect(detectFormat('https://ntfy.sh/my-topic')).toBe('ntfy');
    expect(detectFormat('https://ntfy.example.org/my-topic')).toBe('ntfy');
    expect(detectFormat('http://127.0.0.1:8080/hook')).toBe('json');
    expect(detectFormat('https://evil.example/hooks.slack.com/x')).toBe('json');
    expect(formatOf('http://127.0.0.1/x', 'ntfy')).toBe('ntfy');
  });

  it('Slack: {text}, to the URL itself', () => {
    const req = webhookRequest('https://hooks.slack.com/services/T0/B0/XXXX', 'slack', notification());
    expect(req.url).toBe('https://hooks.slack.com/services/T0/B0/XXXX');
    expect(req.headers['content-type']).toBe('application/json');
    const body = slackBody.parse(JSON.parse(req.body));
    expect(body.text).toBe('*ccc: done, verified (app)*\nTask: build it\nEvidence: verified by: npm test (4 tests)\nCost: spent $0.25');
  });

  it('Discord: {content, allowed_mentions: {parse: []}}, content within 2000 characters even for a long message', () => {
    const long = notification({ lines: Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(280)}`) });
    const body = discordBody.parse(JSON.parse(webhookRequest('https://discord.com/api/webhooks/1/t', 'discord', long).body));
    expect(body.content.startsWith('**ccc: done, verified (app)**\n')).toBe(true);
  });

  it('ntfy: JSON publishing at the root with the topic in the body; a self-hosted base path kept; credentials as Basic auth', () => {
    const req = webhookRequest('https://ntfy.sh/ccc-alerts-91', 'ntfy', notification({ event: 'stuck', outcome: undefined, priority: 'high' }));
    expect(req.url).toBe('https://ntfy.sh/');
    expect(ntfyBody.parse(JSON.parse(req.body))).toMatchObject({
      topic: 'ccc-alerts-91',
      title: 'ccc: done, verified (app)',
      priority: 4,
      tags: ['no_entry', 'ccc'],
    });
    const hosted = webhookRequest('https://me:s3cret@example.org/ntfy/alerts?x=1', 'ntfy', notification());
    expect(hosted.url).toBe('https://example.org/ntfy/?x=1');
    expect(JSON.parse(hosted.body)).toMatchObject({ topic: 'alerts', tags: ['white_check_mark', 'ccc'] });
    expect(hosted.headers.authorization).toBe(`Basic ${Buffer.from('me:s3cret').toString('base64')}`);
  });

  it('json: the fields to route on and a text, without the local path', () => {
    const body = JSON.parse(webhookRequest('http://127.0.0.1/x', 'json', notification()).body) as Record<string, unknown>;
    expect(body).toMatchObject({ event: 'end', outcome: 'verified', project: 'app', exit_code: 0, text: expect.stringContaining('Evidence: verified by') });
    expect(body).not.toHaveProperty('cwd');
  });

  it('model text cannot ping, link, escape or overflow in any format (fuzzed)', () => {
    const nasty = fc.oneof(
      fc.string({ maxLength: 3000 }),
      fc.constantFrom(
        '@everyone',
        '@here',
        '<!channel>',
        '<@U123>',
        '<@&42>',
        '<https://evil.example|click>',
        '\x1b]0;owned\x07',
        '\u202egnp.exe',
        '<a href="x">',
        '\x9b31m',
      ),
    );
    fc.assert(
      fc.property(
        fc.array(nasty, { maxLength: 6 }),
        fc.constantFrom<'slack' | 'discord' | 'ntfy' | 'json'>('slack', 'discord', 'ntfy', 'json'),
        (parts, format) => {
          const text = parts.join(' ');
          const n = notification({ task: text, lines: [`Task: ${text}`, `Last feedback: ${text}`] });
          const raw = webhookRequest('https://ntfy.sh/t', format, n).body;
          const body = JSON.parse(raw) as Record<string, unknown>;
          const shown = JSON.stringify(body);
          expect(shown).not.toMatch(/\\u00(?:0[0-8bcef]|1[0-9a-f])|\\u007f|[\x80-\x9f\u202a-\u202e\u2066-\u2069]/);
          if (format === 'slack') {
            slackBody.parse(body);
            expect(body.text).not.toMatch(/[<>]/);
          }
          if (format === 'discord') {
            discordBody.parse(body);
            expect(body.content).not.toMatch(/@(everyone|here)|<[@#]/);
          }
          if (format === 'ntfy') ntfyBody.parse(body);
          expect(raw.length).toBeLessThan(12_000);
        },
      ),
      { numRuns: 300 },
    );
  });
});
