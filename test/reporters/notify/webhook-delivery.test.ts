/**
 * Delivery never holds the run: against a real local HTTP server that answers, refuses (500) or
 * never answers, `send` returns at once, each kind has one request in flight, the queue behind it
 * is bounded, `flush` waits its bound at most and aborts the rest, and no warning names the URL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../../src/reporters/notify/notification.js';
import { WebhookDelivery } from '../../../src/reporters/notify/webhook-delivery.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';

const note = (event: Notification['event'], title = 'ccc: x (app)'): Notification => ({
  event,
  title,
  lines: ['Task: t'],
  priority: 'normal',
  project: 'app',
  cwd: '/app',
  at: '2026-01-01T10:00:00.000Z',
});

describe('webhook delivery', () => {
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('delivers every notification to a webhook that answers', async () => {
    receiver = await startWebhookReceiver();
    const warnings: string[] = [];
    const delivery = new WebhookDelivery({ url: receiver.url('/tok-1'), format: 'json', timeoutMs: 5000, warn: (m) => warnings.push(m) });
    delivery.send(note('waiting', 'first'));
    delivery.send(note('end', 'second'));
    await delivery.flush(5000);
    expect(receiver.json().map((b) => b.title)).toEqual(['first', 'second']);
    expect(warnings).toEqual([]);
  });

  it('a webhook that never answers: send returns at once, one request in flight per kind, the flush ends at its bound and says what was dropped', async () => {
    receiver = await startWebhookReceiver('hang');
    const warnings: string[] = [];
    const delivery = new WebhookDelivery({ url: receiver.url('/tok-2'), format: 'json', timeoutMs: 60_000, warn: (m) => warnings.push(m) });
    const started = performance.now();
    for (let i = 0; i < 10; i++) delivery.send(note('waiting', `w${i}`));
    delivery.send(note('end'));
    expect(performance.now() - started).toBeLessThan(1000); // nothing waited on the network
    await expect.poll(() => receiver!.requests.length).toBe(2); // one of each kind, the rest queued
    const flushStarted = Date.now();
    await delivery.flush(300);
    expect(Date.now() - flushStarted).toBeLessThan(5000); // the bound, not the webhook's 60 s
    expect(receiver.requests.map((r) => (JSON.parse(r.body) as { title: string }).title)).toEqual(['w0', 'ccc: x (app)']);
    // 2 in flight + 3 queued behind the first waiting one abandoned; 6 dropped while it was slow.
    expect(warnings).toEqual([
      'webhook http://127.0.0.1:' + new URL(receiver.url()).port + '/…: 5 notification(s) still unsent when the run ended (waited 300 ms); dropped',
      expect.stringContaining('6 notification(s) dropped while the webhook was slow'),
    ]);
  });

  it('a request past its timeout is given up, said once, and the next one goes', async () => {
    receiver = await startWebhookReceiver('hang');
    const warnings: string[] = [];
    const delivery = new WebhookDelivery({ url: receiver.url('/tok-3'), format: 'json', timeoutMs: 200, warn: (m) => warnings.push(m) });
    delivery.send(note('waiting', 'a'));
    delivery.send(note('waiting', 'b'));
    await expect.poll(() => receiver!.requests.length, { timeout: 5000 }).toBe(2);
    await delivery.flush(2000);
    expect(warnings[0]).toMatch(/^webhook http:\/\/127\.0\.0\.1:\d+\/…: the "waiting" notification was not delivered: no answer within 200 ms$/);
    expect(warnings.join('\n')).not.toContain('tok-3');
  });

  it('a webhook that answers 500: one warning without the URL, never a throw', async () => {
    receiver = await startWebhookReceiver({ status: 500 });
    const warnings: string[] = [];
    const delivery = new WebhookDelivery({ url: receiver.url('/tok-4'), format: 'slack', timeoutMs: 5000, warn: (m) => warnings.push(m) });
    delivery.send(note('end'));
    delivery.send(note('stuck'));
    await delivery.flush(5000);
    expect(receiver.requests).toHaveLength(2);
    expect(warnings[0]).toMatch(/the "(end|stuck)" notification was not delivered: answered 500 Internal Server Error/);
    expect(warnings[1]).toMatch(/2 notifications in all could not be delivered/);
    expect(warnings.join('\n')).not.toContain('tok-4');
  });

  it('nothing listening: a warning, not an error', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.url('/tok-5');
    await receiver.close();
    receiver = undefined;
    const warnings: string[] = [];
    const delivery = new WebhookDelivery({ url, format: 'json', timeoutMs: 5000, warn: (m) => warnings.push(m) });
    delivery.send(note('end'));
    await delivery.flush(5000);
    expect(warnings).toEqual([expect.stringMatching(/the "end" notification was not delivered: fetch failed/)]);
  });
});
