/**
 * The alert-subscription service's HTTP routes (the seed's `POST {alerts_url}/subscribe`, docs/alerts.md). The node
 * mounts them under `/alerts` on port 8080, so `{alerts_url}` is `http://<node>:8080/alerts`; the app can also be
 * served on its own.
 *   POST /subscribe        {email, alerts[]} → 202 {status: "confirmation_sent", email, alerts}; the mail has the link
 *   GET  /confirm?token=    double opt-in: activates the subscription
 *   GET  /unsubscribe?token= a page with one button; POST the same URL (RFC 8058 one-click) to leave
 * Bad input is 400 with `{error: {code: -32602, message, data}}`; no SMTP configured is 503.
 */
import { Hono } from 'hono';
import { ErrorCode } from '../../src/errors.ts';
import { requestBodyLimit } from '../auth/request-bounds.ts';
import { alertCategories, type AlertCategory } from './alert-events.ts';
import { alertEmailCharsMax, alertSubscribeBytesMax } from './alert-limits.ts';
import type { SubscriptionStore } from './subscriptions.ts';
import type { Mailer } from './mailer.ts';

export interface AlertsAppOptions {
  readonly store: SubscriptionStore;
  readonly mailer: Mailer | undefined;
  /** Absolute base URL of these routes as subscribers reach them, e.g. http://node.example:8080/alerts. */
  readonly publicUrl: string;
  readonly network: string;
}

// Deliberately simple (WHATWG's "valid email address" shape): one @, a dot-separated domain, no spaces.
const emailPattern = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

function invalid(message: string, data: Record<string, unknown>): Response {
  return Response.json({ error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${message}`, data } }, { status: 400 });
}

function parseRequest(body: unknown): { email: string; alerts: AlertCategory[] } | Response {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid('the body must be a JSON object {email, alerts}', { reason: 'not_an_object' });
  const { email, alerts, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return invalid(`unknown field ${extra[0]}`, { reason: 'unknown_field', field: extra[0] });
  if (typeof email !== 'string' || email.length > alertEmailCharsMax || !emailPattern.test(email.trim())) {
    return invalid(`email must be an address of at most ${alertEmailCharsMax} characters`, { reason: 'invalid_email', field: 'email' });
  }
  if (!Array.isArray(alerts) || alerts.length === 0) return invalid(`alerts must be a non-empty array of ${alertCategories.join(', ')}`, { reason: 'invalid_alerts', field: 'alerts' });
  const unknown = alerts.filter((a) => !(alertCategories as readonly unknown[]).includes(a));
  if (unknown.length > 0) return invalid(`unknown alert ${JSON.stringify(unknown[0])}; known: ${alertCategories.join(', ')}`, { reason: 'invalid_alerts', field: 'alerts', allowed: alertCategories });
  if (new Set(alerts).size !== alerts.length) return invalid('alerts lists a category twice', { reason: 'invalid_alerts', field: 'alerts' });
  return { email: email.trim(), alerts: alertCategories.filter((c) => alerts.includes(c)) };
}

const page = (title: string, body: string, status = 200): Response =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto;"><h1>${title}</h1>${body}</body></html>`,
    { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" } },
  );

export function createAlertsApp(options: AlertsAppOptions): Hono {
  const { store, mailer, publicUrl } = options;
  const app = new Hono();

  app.post('/subscribe', requestBodyLimit(alertSubscribeBytesMax), async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return Response.json({ error: { code: ErrorCode.ParseError, message: 'Parse error', data: { reason: 'invalid_json' } } }, { status: 400 });
    }
    const request = parseRequest(body);
    if (request instanceof Response) return request;
    if (mailer === undefined) {
      return Response.json({ error: { code: ErrorCode.ServerError, message: 'Server error: this node has no SMTP server configured (smtp-url)', data: { reason: 'mail_not_configured' } } }, { status: 503 });
    }
    const outcome = await store.subscribe(request.email, request.alerts);
    if (outcome.mail === 'full') {
      return Response.json({ error: { code: ErrorCode.LimitExceeded, message: 'Limit exceeded: too many subscriptions waiting for confirmation', data: { reason: 'subscriptions_full' } } }, { status: 503, headers: { 'retry-after': '3600' } });
    }
    if (outcome.mail === 'confirm') {
      const link = `${publicUrl}/confirm?token=${encodeURIComponent(outcome.confirmToken)}`;
      try {
        await mailer.send({
          to: outcome.subscription.email,
          subject: `[weft ${options.network}] Confirm your alert subscription`,
          text: `Someone (hopefully you) asked to receive ${request.alerts.join(', ')} alerts from a Weft node.\n\nConfirm: ${link}\n\nIf it was not you, ignore this mail: nothing is sent until the link is followed.\n`,
        });
      } catch {
        return Response.json({ error: { code: ErrorCode.ServerError, message: 'Server error: the confirmation mail could not be sent', data: { reason: 'mail_failed' } } }, { status: 502 });
      }
    }
    // The same answer whether the address was new, known or mailed a moment ago: the endpoint reveals no subscribers.
    return c.json({ status: 'confirmation_sent', email: request.email, alerts: request.alerts }, 202);
  });

  app.get('/confirm', async (c) => {
    const sub = await store.confirm(c.req.query('token') ?? '');
    if (sub === undefined) return page('Link not valid', '<p>This confirmation link is unknown, used or expired.</p>', 404);
    const leave = `${publicUrl}/unsubscribe?token=${encodeURIComponent(store.unsubscribeToken(sub))}`;
    return page('Subscription confirmed', `<p>You will receive: ${sub.alerts.join(', ')}.</p><p><a href="${leave}">Unsubscribe</a></p>`);
  });

  app.get('/unsubscribe', (c) => {
    const token = c.req.query('token') ?? '';
    // A GET changes nothing (mail scanners follow links); the button POSTs.
    return page('Unsubscribe', `<form method="post" action="?token=${encodeURIComponent(token)}"><button type="submit">Unsubscribe from Weft node alerts</button></form>`);
  });

  app.post('/unsubscribe', async (c) => {
    const sub = await store.unsubscribe(c.req.query('token') ?? '');
    if (sub === undefined) return page('Link not valid', '<p>This unsubscribe link is unknown or was already used.</p>', 404);
    return page('Unsubscribed', '<p>You will receive no more alerts.</p>');
  });

  return app;
}
