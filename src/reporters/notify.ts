/**
 * `notify`: a run left alone tells a person when it ends, is stuck, waits on the model's limit or
 * reaches a cap (the rules: notify/notification.ts), on the desktop (notify/desktop.ts) and to a
 * webhook (notify/webhook-delivery.ts: Slack, Discord, ntfy or JSON). Nothing here can slow or
 * fail the run: delivery is fire-and-forget, and the run's end waits FLUSH_MS at most for what is
 * still under way.
 */
import type { CccConfig } from '../config/types.js';
import { notificationRules, type Notification, type RunMode } from './notify/notification.js';
import { desktopNotifier } from './notify/desktop.js';
import { FLUSH_MS, WebhookDelivery } from './notify/webhook-delivery.js';
import { formatOf } from './notify/webhook-payload.js';
import type { Reporter } from './reporter.js';

export interface NotifyOptions {
  config: CccConfig;
  mode: RunMode;
  cwd: string;
  env: NodeJS.ProcessEnv;
  warn: (message: string) => void;
  /** Tests: another fetch, another platform. */
  fetch?: typeof fetch;
  platform?: NodeJS.Platform;
}

export function notifyReporter(options: NotifyOptions): Reporter {
  const { notify, supervisor } = options.config;
  const rules = notificationRules({
    mode: options.mode,
    cwd: options.cwd,
    windDown: supervisor.wind_down,
    limitWaitMinutes: supervisor.limit_wait_minutes,
  });
  const wanted = new Set(notify.events);
  const desktop = desktopNotifier({
    setting: notify.desktop,
    env: options.env,
    cwd: options.cwd,
    warn: options.warn,
    ...(options.platform ? { platform: options.platform } : {}),
  });
  const webhook = notify.webhook_url
    ? new WebhookDelivery({
        url: notify.webhook_url,
        format: formatOf(notify.webhook_url, notify.webhook_format),
        timeoutMs: notify.webhook_timeout_seconds * 1000,
        warn: options.warn,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      })
    : undefined;
  const deliver = (n: Notification | undefined) => {
    if (!n || !wanted.has(n.event)) return;
    desktop?.show(n);
    webhook?.send(n);
  };
  return {
    onEvent: (event) => deliver(rules.onEvent(event)),
    async close(end) {
      deliver(rules.onClose(end));
      await Promise.all([webhook?.flush(FLUSH_MS), desktop?.flush(FLUSH_MS)]);
    },
  };
}
