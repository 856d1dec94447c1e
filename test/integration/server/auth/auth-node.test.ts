// Access control and alerts inside a real node (regtest, LMDB in a temp dir, ports 0): the admin key written to
// api.cookie with mode 0600 before the ports open, the OAuth metadata and routes on the HTTP port, and the alerts
// service at /alerts mailing through the configured SMTP server with links back to this node.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';
import { startSmtpSink, type SmtpSink } from '../../../helpers/smtp-sink.ts';

let t: RpcTestNode;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startRpcTestNode(['--smtp-url', smtp.url, '--alerts-from', 'alerts@node.test']);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('a node with access control', () => {
  it('holds an admin key in <datadir>/api.cookie, mode 0600', () => {
    const path = t.node.apiCookiePath;
    expect(path.endsWith('/api.cookie')).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(t.node.access.keys.verify(readFileSync(path, 'utf8').trim())).toMatchObject({ admin: true });
  });

  it('serves the OAuth metadata and authorize endpoint on its HTTP port', async () => {
    const meta = await t.get('/.well-known/oauth-authorization-server');
    expect(meta.body).toMatchObject({ issuer: t.base, token_endpoint: `${t.base}/oauth/token` });
    expect((await t.get('/oauth/authorize?client_id=nope')).status).toBe(400);
  });

  it('runs the alerts service at /alerts: the confirmation mail links back to this node', async () => {
    const res = await t.post('/alerts/subscribe', JSON.stringify({ email: 'ops@example.org', alerts: ['upgrades'] }));
    expect(res.status).toBe(202);
    const mail = await smtp.next((m) => m.to.includes('ops@example.org'));
    expect(mail.header('from')).toContain('alerts@node.test');
    const link = new RegExp(`${t.base}/alerts/confirm\\?token=\\S+`).exec(mail.text)![0];
    expect((await fetch(link)).status).toBe(200);
    await t.node.alerts.service.raise({ kind: 'newer_version', version: '99.0.0', ours: '0.1.0' });
    await smtp.next((m) => m.to.includes('ops@example.org') && m.subject.includes('99.0.0'));
  });
});
