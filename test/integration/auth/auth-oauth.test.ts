// The node's OAuth 2.0 authorization server driven by a real HTTP client (fetch, redirects not followed): the
// authorization code flow with PKCE S256 through the consent form, tokens used on JSON-RPC, code reuse, wrong
// redirect URIs, refresh with rotation, revocation (RFC 7009), expiry, and the RFC 8414 metadata.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s256Challenge, verifyS256 } from '../../../src/auth/pkce.ts';
import { startAuthApp, type AuthApp } from '../../helpers/auth-app.ts';

let t: AuthApp;
let adminKey: string;
let client: { id: string; secret: string };
let publicClientId: string;
const redirectUri = 'http://127.0.0.1:9999/callback';

beforeAll(async () => {
  t = await startAuthApp();
  adminKey = (await t.access.keys.create({ label: 'api.cookie', scopes: ['read_balance', 'send_transactions', 'mine_blocks'], admin: true })).key;
  const created = await t.access.clients.create({ name: 'Wallet <App>', redirectUris: [redirectUri], scopes: ['read_balance', 'send_transactions'] });
  client = { id: created.info.id, secret: created.secret! };
  publicClientId = (await t.access.clients.create({ name: 'Browser', redirectUris: [redirectUri], scopes: ['read_balance'], public: true })).info.id;
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});
const verifier = () => randomBytes(32).toString('base64url');

/** The whole front channel: GET the consent page, approve it with the admin key, read the code off the redirect. */
async function authorize(params: Record<string, string>, key = adminKey): Promise<URL> {
  const query = new URLSearchParams({ response_type: 'code', client_id: client.id, redirect_uri: redirectUri, state: 'xyz', ...params });
  const page = await fetch(`${t.base}/oauth/authorize?${query}`, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Wallet &lt;App&gt;');
  const hidden = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
  const approved = await fetch(`${t.base}/oauth/authorize`, form({ ...hidden, admin_key: key, decision: 'approve' }));
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get('location')!);
}

async function token(fields: Record<string, string>) {
  const res = await fetch(`${t.base}/oauth/token`, form({ client_id: client.id, client_secret: client.secret, ...fields }));
  return { status: res.status, body: (await res.json()) as Record<string, string | number>, cache: res.headers.get('cache-control') };
}

async function fullFlow(scope = 'read_balance send_transactions') {
  const v = verifier();
  const back = await authorize({ scope, code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
  const code = back.searchParams.get('code')!;
  const issued = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: v });
  return { back, code, v, issued };
}

const rpcAs = async (accessToken: string, method = 'get_transaction_history') => {
  const res = await t.rpc(method, {}, { authorization: `Bearer ${accessToken}` });
  return { status: res.status, body: (await res.json()) as { error?: { code: number; data?: { reason?: string } } }, www: res.headers.get('www-authenticate') };
};

describe('PKCE (RFC 7636)', () => {
  it('matches the RFC 7636 Appendix B example and refuses short verifiers', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifyS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifyS256('short', s256Challenge('short'))).toBe(false);
  });
});

describe('authorization code flow', () => {
  it('issues a code with the state and issuer, exchanges it for tokens, and the access token works on JSON-RPC', async () => {
    const { back, issued } = await fullFlow();
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('xyz');
    expect(back.searchParams.get('iss')).toBe(t.base);
    expect(issued.status).toBe(200);
    expect(issued.cache).toBe('no-store');
    expect(issued.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read_balance send_transactions' });
    expect(String(issued.body.access_token)).toMatch(/^weft_at_/);
    expect(String(issued.body.refresh_token)).toMatch(/^weft_rt_/);
    const ok = await rpcAs(String(issued.body.access_token));
    expect(ok.status).toBe(200);
    expect(ok.body.error?.code).not.toBe(-32001);
    const forbidden = await rpcAs(String(issued.body.access_token), 'start_mining');
    expect(forbidden.status).toBe(403);
  });

  it('refuses a second use of a code and revokes the tokens the first use issued', async () => {
    const { code, v, issued } = await fullFlow();
    const again = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: v });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await rpcAs(String(issued.body.access_token))).status).toBe(401);
  });

  it('refuses a redirect URI that is not registered exactly: on the page, never redirecting', async () => {
    for (const uri of [`${redirectUri}/evil`, 'http://127.0.0.1:9999/callback?x=1', 'https://evil.example/callback']) {
      const res = await fetch(`${t.base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.id, redirect_uri: uri, state: 's' })}`, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri is not registered');
    }
  });

  it('refuses a token request whose redirect_uri differs from the authorization request', async () => {
    const v = verifier();
    const back = await authorize({ code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
    const res = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9999/other', code_verifier: v });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a wrong or missing code_verifier, and plain PKCE', async () => {
    const v = verifier();
    const back = await authorize({ code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
    const code = back.searchParams.get('code')!;
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier() })).body.error).toBe('invalid_grant');
    const back2 = await authorize({ code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
    expect((await token({ grant_type: 'authorization_code', code: back2.searchParams.get('code')!, redirect_uri: redirectUri })).body.error).toBe('invalid_grant');
    const plain = await fetch(`${t.base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.id, redirect_uri: redirectUri, code_challenge: v, code_challenge_method: 'plain' })}`, { redirect: 'manual' });
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('a public client must use PKCE and authenticates with its client_id alone', async () => {
    const without = await fetch(`${t.base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: publicClientId, redirect_uri: redirectUri })}`, { redirect: 'manual' });
    expect(new URL(without.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const v = verifier();
    const query = new URLSearchParams({ response_type: 'code', client_id: publicClientId, redirect_uri: redirectUri, code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
    await fetch(`${t.base}/oauth/authorize?${query}`);
    const approved = await fetch(`${t.base}/oauth/authorize`, form({ ...Object.fromEntries(query), scope: 'read_balance', admin_key: adminKey, decision: 'approve' }));
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const res = await fetch(`${t.base}/oauth/token`, form({ grant_type: 'authorization_code', client_id: publicClientId, code, redirect_uri: redirectUri, code_verifier: v }));
    expect(res.status).toBe(200);
  });

  it('the consent page refuses a wrong admin key, and Deny sends access_denied back', async () => {
    const v = verifier();
    const fields = { response_type: 'code', client_id: client.id, redirect_uri: redirectUri, scope: 'read_balance', state: 'st', code_challenge: s256Challenge(v), code_challenge_method: 'S256' };
    const wrong = await fetch(`${t.base}/oauth/authorize`, form({ ...fields, admin_key: 'weft_ak_0000000000000000_' + 'A'.repeat(43), decision: 'approve' }));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('not the node’s admin key');
    const nonAdmin = (await t.access.keys.create({ label: 'plain', scopes: ['read_balance'] })).key;
    expect((await fetch(`${t.base}/oauth/authorize`, form({ ...fields, admin_key: nonAdmin, decision: 'approve' }))).status).toBe(401);
    const denied = await fetch(`${t.base}/oauth/authorize`, form({ ...fields, decision: 'deny' }));
    const back = new URL(denied.headers.get('location')!);
    expect([back.searchParams.get('error'), back.searchParams.get('state')]).toEqual(['access_denied', 'st']);
  });

  it('refuses scopes the client was not registered for', async () => {
    const res = await fetch(`${t.base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.id, redirect_uri: redirectUri, scope: 'mine_blocks' })}`, { redirect: 'manual' });
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('authenticates clients: a wrong secret is invalid_client (401), HTTP Basic works', async () => {
    const { v } = await fullFlow();
    const wrong = await fetch(`${t.base}/oauth/token`, form({ grant_type: 'authorization_code', client_id: client.id, client_secret: 'nope', code: 'c', redirect_uri: redirectUri, code_verifier: v }));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('Basic');
    const v2 = verifier();
    const back = await authorize({ code_challenge: s256Challenge(v2), code_challenge_method: 'S256' });
    const basic = Buffer.from(`${client.id}:${client.secret}`).toString('base64');
    const res = await fetch(`${t.base}/oauth/token`, {
      ...form({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: v2 }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('refresh, revocation, expiry', () => {
  it('refreshes with rotation: the new tokens work, the old refresh token replayed revokes the grant', async () => {
    const { issued } = await fullFlow();
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(issued.body.access_token);
    expect((await rpcAs(String(refreshed.body.access_token))).status).toBe(200);
    const narrowed = await token({ grant_type: 'refresh_token', refresh_token: String(refreshed.body.refresh_token), scope: 'read_balance' });
    expect(narrowed.body.scope).toBe('read_balance');
    const replay = await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) });
    expect(replay.body.error).toBe('invalid_grant');
    expect((await rpcAs(String(narrowed.body.access_token))).status).toBe(401);
  });

  it('refuses a refresh that widens the scope', async () => {
    const { issued } = await fullFlow('read_balance');
    const wider = await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token), scope: 'read_balance send_transactions' });
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('revokes an access token (RFC 7009): 200, then the token is refused with invalid_token', async () => {
    const { issued } = await fullFlow();
    const res = await fetch(`${t.base}/oauth/revoke`, form({ client_id: client.id, client_secret: client.secret, token: String(issued.body.access_token) }));
    expect(res.status).toBe(200);
    const refused = await rpcAs(String(issued.body.access_token));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: -32001, data: { reason: 'invalid_token' } });
    expect(refused.www).toContain('error="invalid_token"');
    // Unknown tokens are not an error (RFC 7009 §2.2).
    expect((await fetch(`${t.base}/oauth/revoke`, form({ client_id: client.id, client_secret: client.secret, token: 'weft_at_unknown' }))).status).toBe(200);
  });

  it('revoking a refresh token ends the access tokens of its grant and the refresh token itself', async () => {
    const { issued } = await fullFlow();
    await fetch(`${t.base}/oauth/revoke`, form({ client_id: client.id, client_secret: client.secret, token: String(issued.body.refresh_token), token_type_hint: 'refresh_token' }));
    expect((await rpcAs(String(issued.body.access_token))).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) })).body.error).toBe('invalid_grant');
  });

  it('expires access tokens after an hour (token_expired) and codes after two minutes', async () => {
    const { issued } = await fullFlow();
    t.clock.advance(3_600_000);
    const expired = await rpcAs(String(issued.body.access_token));
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatchObject({ data: { reason: 'token_expired' } });
    expect((await token({ grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) })).status).toBe(200);
    const v = verifier();
    const back = await authorize({ code_challenge: s256Challenge(v), code_challenge_method: 'S256' });
    t.clock.advance(2 * 60_000);
    const late = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: v });
    expect(late.body.error).toBe('invalid_grant');
  });

  it('prunes expired and revoked tokens from the store', async () => {
    await fullFlow();
    t.clock.advance(31 * 24 * 3_600_000);
    expect(await t.access.grants.prune()).toBeGreaterThan(0);
    expect(await t.access.grants.prune()).toBe(0);
  });
});

describe('metadata (RFC 8414)', () => {
  it('describes the endpoints, S256 only, and the scopes', async () => {
    const res = await fetch(`${t.base}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toMatchObject({
      issuer: t.base,
      authorization_endpoint: `${t.base}/oauth/authorize`,
      token_endpoint: `${t.base}/oauth/token`,
      revocation_endpoint: `${t.base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      scopes_supported: ['read_balance', 'send_transactions', 'mine_blocks'],
    });
  });
});
