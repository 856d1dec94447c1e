// The alert-subscription service end to end: POST /subscribe over HTTP → a confirmation mail arrives at a real local
// SMTP server → following its link confirms → an event induced through the node monitor → the alert mail arrives,
// with a working one-click unsubscribe. Plus validation, the double opt-in rules and the monitor's conditions.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertService, type AlertService } from '../../../../server/alerts/alert-service.ts';
import { createSmtpMailer } from '../../../../server/alerts/mailer.ts';
import { createNodeMonitor, type MonitorSource } from '../../../../server/alerts/node-monitor.ts';
import { categoryOf, dedupeKey, describeAlert, type AlertEvent } from '../../../../server/alerts/alert-events.ts';
import { alertConfirmResendMs, chainStallMs, invalidBlockFloodCount, noPeersMs } from '../../../../server/alerts/alert-limits.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { createManualClock } from '../../../../src/util/clock.ts';
import { startSmtpSink, type SmtpSink } from '../../../helpers/smtp-sink.ts';

let smtp: SmtpSink;
let service: AlertService;
let server: ServerType;
let base: string;
const clock = createManualClock(Date.UTC(2030, 0, 1));

beforeAll(async () => {
  smtp = await startSmtpSink();
  const app = new Hono();
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  service = createAlertService({ kv: createMemoryStore(), clock, mailer: createSmtpMailer({ url: smtp.url, from: 'node@weft.test' }), publicUrl: `${base}/alerts`, network: 'regtest' });
  app.route('/alerts', service.app);
});
afterAll(async () => {
  await service.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await smtp.close();
});

const subscribe = (body: unknown) =>
  fetch(`${base}/alerts/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const linkIn = (text: string, path: string): string => {
  const m = new RegExp(`(${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/alerts/${path}\\?token=[^\\s]+)`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[1]!;
};

describe('subscribe → confirm → alert → unsubscribe', () => {
  it('delivers a confirmation mail, activates on the link, mails an induced event, and stops after unsubscribe', async () => {
    const res = await subscribe({ email: 'Ops@Example.org', alerts: ['security', 'network_issues'] });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: 'confirmation_sent', email: 'Ops@Example.org', alerts: ['network_issues', 'security'] });

    const confirmation = await smtp.next((m) => m.to.includes('ops@example.org') && /Confirm/.test(m.subject));
    expect(confirmation.subject).toBe('[weft regtest] Confirm your alert subscription');
    // Nothing is mailed before the link is followed.
    await service.raise({ kind: 'peer_banned', peer: 'early', reason: 'x' });
    expect(smtp.mails.filter((m) => m.text.includes('early'))).toHaveLength(0);

    const confirmed = await fetch(linkIn(confirmation.text, 'confirm'));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('network_issues, security');
    expect((await fetch(linkIn(confirmation.text, 'confirm'))).status).toBe(404);

    // An event induced the way the node raises them: through the monitor, from a stalled chain.
    const source: MonitorSource = { height: () => 42, peerCount: () => 3, peerVersions: () => [], expectPeers: () => true, expectBlocks: () => true };
    const raised: Promise<boolean>[] = [];
    const monitor = createNodeMonitor({ clock, source, version: '0.1.0', raise: (e) => raised.push(service.raise(e)) });
    clock.advance(chainStallMs);
    monitor.tick();
    await Promise.all(raised);
    const alert = await smtp.next((m) => m.subject.includes('Chain stalled'));
    expect(alert.to).toEqual(['ops@example.org']);
    expect(alert.text).toContain('height 42');
    expect(alert.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    // RFC 8058 one-click: POST the link from the mail.
    const leave = linkIn(alert.text, 'unsubscribe');
    expect((await fetch(leave)).status).toBe(200); // a GET only shows the button
    const left = await fetch(leave, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(left.status).toBe(200);
    const before = smtp.mails.length;
    await service.raise({ kind: 'invalid_block_flood', count: 10, windowMs: 600_000 });
    expect(smtp.mails.length).toBe(before);
  });

  it('mails only the categories a subscriber confirmed, and each alert once per cooldown', async () => {
    await subscribe({ email: 'upgrades@example.org', alerts: ['upgrades'] });
    const mail = await smtp.next((m) => m.to.includes('upgrades@example.org'));
    await fetch(linkIn(mail.text, 'confirm'));
    const event: AlertEvent = { kind: 'newer_version', version: '9.0.0', ours: '0.1.0' };
    expect(await service.raise(event)).toBe(true);
    expect(await service.raise(event)).toBe(false);
    await smtp.next((m) => m.to.includes('upgrades@example.org') && m.subject.includes('9.0.0'));
    // A network_issues alert goes out (to ops@, confirmed earlier for it, if still subscribed) but not to upgrades@.
    expect(await service.raise({ kind: 'no_peers', sinceMs: 0 })).toBe(true);
    expect(smtp.mails.filter((m) => m.to.includes('upgrades@example.org') && m.subject.includes('has no peers'))).toHaveLength(0);
  });
});

describe('validation and double opt-in rules', () => {
  it.each([
    ['not JSON', '{', 'invalid_json'],
    ['an array', [], 'not_an_object'],
    ['a bad address', { email: 'nobody', alerts: ['security'] }, 'invalid_email'],
    ['no alerts', { email: 'a@b.org', alerts: [] }, 'invalid_alerts'],
    ['an unknown alert', { email: 'a@b.org', alerts: ['weather'] }, 'invalid_alerts'],
    ['a repeated alert', { email: 'a@b.org', alerts: ['security', 'security'] }, 'invalid_alerts'],
    ['an extra field', { email: 'a@b.org', alerts: ['security'], admin: true }, 'unknown_field'],
  ])('refuses %s with 400', async (_name, body, reason) => {
    const res = await subscribe(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { data: { reason: string } } }).error.data.reason).toBe(reason);
  });

  it('refuses bodies over 4 KiB with 413', async () => {
    expect((await subscribe({ email: 'a@b.org', alerts: ['security'], pad: 'x'.repeat(5_000) })).status).toBe(413);
  });

  it('answers a quick resubscribe the same way without mailing again, and mails again after the resend interval', async () => {
    await subscribe({ email: 'twice@example.org', alerts: ['security'] });
    await smtp.next((m) => m.to.includes('twice@example.org'));
    const again = await subscribe({ email: 'twice@example.org', alerts: ['security'] });
    expect(again.status).toBe(202);
    expect(smtp.mails.filter((m) => m.to.includes('twice@example.org'))).toHaveLength(1);
    clock.advance(alertConfirmResendMs);
    await subscribe({ email: 'twice@example.org', alerts: ['security'] });
    expect(smtp.mails.filter((m) => m.to.includes('twice@example.org'))).toHaveLength(2);
  });

  it('answers 503 when the node has no SMTP server', async () => {
    const lone = createAlertService({ kv: createMemoryStore(), clock, mailer: undefined, publicUrl: 'http://x/alerts', network: 'regtest' });
    const res = await lone.app.request('/subscribe', { method: 'POST', body: JSON.stringify({ email: 'a@b.org', alerts: ['security'] }) });
    expect(res.status).toBe(503);
  });
});

describe('node monitor', () => {
  const setup = (over: Partial<MonitorSource> = {}) => {
    const c = createManualClock(0);
    const events: AlertEvent[] = [];
    const source: MonitorSource = { height: () => 1, peerCount: () => 0, peerVersions: () => [], expectPeers: () => true, expectBlocks: () => true, ...over };
    return { c, events, monitor: createNodeMonitor({ clock: c, source, version: '2.1.0', raise: (e) => events.push(e) }) };
  };

  it('raises no_peers after two minutes alone, once, and re-arms when peers come back', () => {
    let peers = 0;
    const { c, events, monitor } = setup({ peerCount: () => peers });
    monitor.tick();
    c.advance(noPeersMs - 1);
    monitor.noteBlock();
    monitor.tick();
    expect(events).toHaveLength(0);
    c.advance(1);
    monitor.tick();
    monitor.tick();
    expect(events).toEqual([{ kind: 'no_peers', sinceMs: 0 }]);
    peers = 2;
    monitor.tick();
    peers = 0;
    monitor.tick();
    c.advance(noPeersMs);
    monitor.noteBlock();
    monitor.tick();
    expect(events.filter((e) => e.kind === 'no_peers')).toHaveLength(2);
  });

  it('stays quiet for a node meant to run alone', () => {
    const { c, events, monitor } = setup({ expectPeers: () => false, expectBlocks: () => false });
    c.advance(3_600_000);
    monitor.tick();
    expect(events).toEqual([]);
  });

  it('raises newer_version once per version, only for newer ones', () => {
    const { events, monitor } = setup({ peerCount: () => 3, peerVersions: () => ['weft/2.1.0', 'weft/2.0.5', 'weft/2.2.0', 'weft/2.2.0', 'garbage'] });
    monitor.tick();
    monitor.tick();
    expect(events).toEqual([{ kind: 'newer_version', version: '2.2.0', ours: '2.1.0' }]);
  });

  it('raises a flood at ten invalid blocks within ten minutes, not for a trickle', () => {
    const { c, events, monitor } = setup({ peerCount: () => 1 });
    for (let i = 0; i < invalidBlockFloodCount - 1; i++) {
      monitor.noteInvalidBlock();
      c.advance(120_000);
    }
    expect(events).toHaveLength(0);
    for (let i = 0; i < invalidBlockFloodCount; i++) monitor.noteInvalidBlock();
    expect(events).toEqual([{ kind: 'invalid_block_flood', count: invalidBlockFloodCount, windowMs: 600_000 }]);
    monitor.notePeerBanned('abcd', 'invalid block');
    expect(events.at(-1)).toEqual({ kind: 'peer_banned', peer: 'abcd', reason: 'invalid block' });
  });

  it('raises a finality conflict as a security alert, deduplicated per finality point', () => {
    const { events, monitor } = setup({ peerCount: () => 1 });
    monitor.noteFinalityConflict('aa'.repeat(32), 'bb'.repeat(32));
    const event = events.at(-1)!;
    expect(event).toEqual({ kind: 'finality_conflict', block: 'aa'.repeat(32), finalityPoint: 'bb'.repeat(32) });
    expect(categoryOf(event)).toBe('security');
    expect(dedupeKey(event)).toBe(`finality_conflict:${'bb'.repeat(32)}`);
    expect(describeAlert(event).body).toContain('bb'.repeat(32));
  });
});
