/**
 * Alert subscriptions with double opt-in (docs/alerts.md): a subscription is pending until the confirmation link
 * is followed; only confirmed subscriptions are mailed. Tokens are `<id>.<secret>`. The confirmation secret is stored
 * as its SHA-256; the unsubscribe secret is stored as is, because every alert mail must carry the link (it grants
 * nothing but leaving the list). A resubscribe of a confirmed address changes its categories only once the new link is followed, so a
 * stranger cannot change or pause someone's alerts.
 */
import type { KvStore } from '../../src/storage/kv.ts';
import type { Clock } from '../../src/util/clock.ts';
import { jsonTable } from '../auth/json-table.ts';
import { constantTimeEqual, newId, newSecret, sha256Hex } from '../auth/secrets.ts';
import type { AlertCategory } from './alert-events.ts';
import { alertConfirmResendMs, alertPendingLifetimeMs, alertPendingMax, alertSubscribersMax } from './alert-limits.ts';

interface Subscription {
  readonly id: string;
  readonly email: string;
  /** Categories mailed now (empty while never confirmed). */
  readonly alerts: readonly AlertCategory[];
  /** Categories the last request asked for, applied on confirmation. */
  readonly requested: readonly AlertCategory[];
  readonly confirmed: boolean;
  readonly createdAtMs: number;
  readonly confirmMailAtMs: number;
  readonly confirmHash: string;
  readonly unsubscribeSecret: string;
}

type SubscribeOutcome =
  | { readonly mail: 'confirm'; readonly confirmToken: string; readonly subscription: Subscription }
  /** A confirmation went to this address moments ago: answer the same, mail nothing. */
  | { readonly mail: 'none'; readonly subscription: Subscription }
  | { readonly mail: 'full' };

export interface SubscriptionStore {
  subscribe(email: string, alerts: readonly AlertCategory[]): Promise<SubscribeOutcome>;
  confirm(token: string): Promise<Subscription | undefined>;
  unsubscribe(token: string): Promise<Subscription | undefined>;
  /** The token for the unsubscribe link in every mail. */
  unsubscribeToken(subscription: Subscription): string;
  confirmedFor(category: AlertCategory): Subscription[];
  /** Drops pending subscriptions older than a day. */
  prune(): Promise<number>;
}

const normalise = (email: string): string => email.trim().toLowerCase();

export function createSubscriptionStore(kv: KvStore, clock: Clock): SubscriptionStore {
  const subs = jsonTable<Subscription>(kv, 's');
  const byEmail = jsonTable<string>(kv, 'e');
  const find = (token: string, check: (sub: Subscription, secret: string) => boolean): Subscription | undefined => {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 200) return undefined;
    const sub = subs.get(token.slice(0, dot));
    return sub && check(sub, token.slice(dot + 1)) ? sub : undefined;
  };

  const pendingCount = (): number => [...subs.all()].filter(([, s]) => !s.confirmed).length;

  return {
    async subscribe(email, alerts) {
      const now = clock.nowMs();
      const address = normalise(email);
      const existingId = byEmail.get(sha256Hex(address));
      const existing = existingId === undefined ? undefined : subs.get(existingId);
      if (existing && now - existing.confirmMailAtMs < alertConfirmResendMs) return { mail: 'none', subscription: existing };
      if (existing === undefined) {
        if (subs.count() >= alertSubscribersMax + alertPendingMax || pendingCount() >= alertPendingMax) return { mail: 'full' };
      }
      const id = existing?.id ?? newId(12);
      const secret = newSecret('');
      const subscription: Subscription = {
        id,
        email: address,
        alerts: existing?.alerts ?? [],
        requested: [...alerts],
        confirmed: existing?.confirmed ?? false,
        createdAtMs: existing?.createdAtMs ?? now,
        confirmMailAtMs: now,
        confirmHash: sha256Hex(secret),
        unsubscribeSecret: existing?.unsubscribeSecret ?? newSecret(''),
      };
      await kv.write([subs.putOp(id, subscription), byEmail.putOp(sha256Hex(address), id)]);
      return { mail: 'confirm', confirmToken: `${id}.${secret}`, subscription };
    },

    async confirm(token) {
      const sub = find(token, (s, secret) => constantTimeEqual(s.confirmHash, sha256Hex(secret)));
      if (sub === undefined) return undefined;
      // A used confirmation link cannot be used again (the hash changes to one nobody holds).
      const confirmed: Subscription = { ...sub, confirmed: true, alerts: sub.requested, confirmHash: sha256Hex(newSecret('')) };
      await subs.put(sub.id, confirmed);
      return confirmed;
    },

    async unsubscribe(token) {
      const sub = find(token, (s, secret) => constantTimeEqual(s.unsubscribeSecret, secret));
      if (sub === undefined) return undefined;
      await kv.write([subs.deleteOp(sub.id), byEmail.deleteOp(sha256Hex(sub.email))]);
      return sub;
    },

    unsubscribeToken: (subscription) => `${subscription.id}.${subscription.unsubscribeSecret}`,

    confirmedFor: (category) => [...subs.all()].map(([, s]) => s).filter((s) => s.confirmed && s.alerts.includes(category)),

    async prune() {
      const now = clock.nowMs();
      const stale = [...subs.all()].map(([, s]) => s).filter((s) => !s.confirmed && now - s.createdAtMs > alertPendingLifetimeMs);
      if (stale.length > 0) await kv.write(stale.flatMap((s) => [subs.deleteOp(s.id), byEmail.deleteOp(sha256Hex(s.email))]));
      return stale.length;
    },
  };
}
