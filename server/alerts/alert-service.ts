/**
 * The alert service (docs/alerts.md): the subscription store, its HTTP app, and `raise(event)` that mails every
 * confirmed subscriber of the event's category — once per alert within the cooldown, a few mails at a time, each
 * with an unsubscribe link and RFC 8058 one-click headers. Delivery failures are logged, never thrown at the caller
 * (the node's event loop must not fail because a mail server is down).
 */
import type { Hono } from 'hono';
import type { KvStore } from '../../src/storage/kv.ts';
import type { Clock } from '../../src/util/clock.ts';
import { categoryOf, dedupeKey, describeAlert, type AlertEvent } from './alert-events.ts';
import { alertCooldownMs, alertSendConcurrencyMax } from './alert-limits.ts';
import { createAlertsApp } from './alerts-app.ts';
import type { Mailer } from './mailer.ts';
import { createSubscriptionStore, type SubscriptionStore } from './subscriptions.ts';

export interface AlertServiceOptions {
  readonly kv: KvStore;
  readonly clock: Clock;
  readonly mailer: Mailer | undefined;
  readonly publicUrl: string;
  readonly network: string;
  readonly log?: (level: 'info' | 'warn', fields: Record<string, unknown>, message: string) => void;
}

export interface AlertService {
  readonly app: Hono;
  readonly store: SubscriptionStore;
  /** Mails the event to its subscribers; resolves when every mail was tried. False when the cooldown held it back. */
  raise(event: AlertEvent): Promise<boolean>;
  close(): Promise<void>;
}

export function createAlertService(options: AlertServiceOptions): AlertService {
  const { clock, mailer, publicUrl } = options;
  const store = createSubscriptionStore(options.kv, clock);
  const app = createAlertsApp({ store, mailer, publicUrl, network: options.network });
  const lastSent = new Map<string, number>();
  const log = options.log ?? (() => undefined);

  return {
    app,
    store,
    async raise(event) {
      const key = dedupeKey(event);
      const now = clock.nowMs();
      const last = lastSent.get(key);
      if (last !== undefined && now - last < alertCooldownMs) return false;
      lastSent.set(key, now);
      const category = categoryOf(event);
      const { title, body } = describeAlert(event);
      const recipients = store.confirmedFor(category);
      log('info', { event: 'alert_raised', kind: event.kind, category, recipients: recipients.length }, title);
      if (mailer === undefined) return true;
      const queue = [...recipients];
      const worker = async (): Promise<void> => {
        for (let sub = queue.shift(); sub !== undefined; sub = queue.shift()) {
          const leave = `${publicUrl}/unsubscribe?token=${encodeURIComponent(store.unsubscribeToken(sub))}`;
          try {
            await mailer.send({
              to: sub.email,
              subject: `[weft ${options.network}] ${title}`,
              text: `${body}\n\nCategory: ${category}. Time: ${new Date(now).toISOString()}.\n\nUnsubscribe: ${leave}\n`,
              headers: { 'List-Unsubscribe': `<${leave}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            });
          } catch (error) {
            log('warn', { event: 'alert_mail_failed', kind: event.kind, err: error }, 'alert mail failed');
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(alertSendConcurrencyMax, queue.length) }, worker));
      return true;
    },
    async close() {
      mailer?.close();
      await options.kv.close();
    },
  };
}
