/**
 * Posting notifications to a webhook without the run ever waiting on it. `send` returns at once;
 * each kind of notification (end, stuck, waiting, cap) has one request in flight at most and a
 * few waiting behind it (past that the oldest waiting one is dropped, counted, and said once), and
 * every request is bounded by `timeoutMs` (`notify.webhook_timeout_seconds`). A webhook that
 * hangs, refuses or answers 500 costs the run nothing but a warning in its log: never an error,
 * never an exit code. At the run's end `flush` waits for what is still under way, at most its
 * bound (FLUSH_MS: the run's last notification is usually the one in flight when it ends, and a
 * webhook that answers at all answers well within it), then aborts the rest so that nothing keeps
 * the process alive. The URL is never shown: a warning names only its scheme and host.
 */
import { redactedUrl, withoutUrl } from '../../config/secret-url.js';
import { errorText } from '../../errors.js';
import type { Notification, NotifyEvent } from './notification.js';
import { webhookRequest, type WebhookFormat } from './webhook-payload.js';

/** How long a run's end waits for notifications still under way. */
export const FLUSH_MS = 2000;
/** Notifications of one kind waiting behind the one in flight. */
const QUEUED_PER_KIND = 3;

export interface WebhookDeliveryOptions {
  url: string;
  format: WebhookFormat;
  timeoutMs: number;
  /** Said once for the first failure (and once more at the end with the count of the others). */
  warn: (message: string) => void;
  fetch?: typeof fetch;
}

interface Lane {
  inFlight?: Promise<void>;
  queue: Notification[];
}

export class WebhookDelivery {
  private readonly lanes = new Map<NotifyEvent, Lane>();
  private readonly aborts = new Set<AbortController>();
  private failures = 0;
  private dropped = 0;
  private closed = false;
  private readonly where: string;

  constructor(private readonly options: WebhookDeliveryOptions) {
    this.where = redactedUrl(options.url);
  }

  send(notification: Notification): void {
    if (this.closed) return;
    const lane = this.lanes.get(notification.event) ?? { queue: [] };
    this.lanes.set(notification.event, lane);
    lane.queue.push(notification);
    if (lane.queue.length > QUEUED_PER_KIND) {
      lane.queue.shift();
      this.dropped++;
    }
    this.pump(lane);
  }

  /** Waits for what is under way, at most `boundMs`; then aborts what is left and says what was lost. */
  async flush(boundMs = FLUSH_MS): Promise<void> {
    const settled = () => [...this.lanes.values()].every((lane) => !lane.inFlight && lane.queue.length === 0);
    const deadline = Date.now() + boundMs;
    while (!settled() && Date.now() < deadline) {
      const pending = [...this.lanes.values()].flatMap((lane) => (lane.inFlight ? [lane.inFlight] : []));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))))]);
      clearTimeout(timer);
    }
    this.closed = true;
    let abandoned = 0;
    for (const lane of this.lanes.values()) {
      abandoned += lane.queue.length + (lane.inFlight ? 1 : 0);
      lane.queue.length = 0;
    }
    for (const abort of this.aborts) abort.abort();
    if (abandoned > 0) this.options.warn(`webhook ${this.where}: ${abandoned} notification(s) still unsent when the run ended (waited ${boundMs} ms); dropped`);
    if (this.failures > 1) this.options.warn(`webhook ${this.where}: ${this.failures} notifications in all could not be delivered`);
    if (this.dropped > 0) this.options.warn(`webhook ${this.where}: ${this.dropped} notification(s) dropped while the webhook was slow`);
  }

  private pump(lane: Lane): void {
    if (lane.inFlight || this.closed) return;
    const next = lane.queue.shift();
    if (!next) return;
    lane.inFlight = this.post(next).finally(() => {
      lane.inFlight = undefined;
      this.pump(lane);
    });
  }

  private async post(notification: Notification): Promise<void> {
    const abort = new AbortController();
    this.aborts.add(abort);
    const timer = setTimeout(() => abort.abort(new Error(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    timer.unref();
    try {
      const request = webhookRequest(this.options.url, this.options.format, notification);
      const response = await (this.options.fetch ?? fetch)(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: abort.signal });
      // Read to the end, so the connection is free; the answer itself says nothing ccc needs.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) this.failed(notification, `answered ${response.status} ${response.statusText}`.trim());
    } catch (error) {
      const why = abort.signal.aborted && abort.signal.reason instanceof Error ? abort.signal.reason.message : errorText(error);
      this.failed(notification, why);
    } finally {
      clearTimeout(timer);
      this.aborts.delete(abort);
    }
  }

  private failed(notification: Notification, why: string): void {
    this.failures++;
    if (this.failures > 1 || this.closed) return;
    this.options.warn(`webhook ${this.where}: the "${notification.event}" notification was not delivered: ${withoutUrl(why, this.options.url)}`);
  }
}
