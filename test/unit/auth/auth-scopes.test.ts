// The method → scope table (src/rpc/method-scopes.ts, docs/auth.md "Scopes") against the real dispatcher and JSON-RPC
// routes over HTTP: every protected method is refused without its scope (401 anonymous, 403 with credentials that
// lack it, naming the scope) and passes the access check with it; public methods need nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScopes, scopes, type Scope } from '../../../src/auth/scopes.ts';
import { methodScopes, requiredScope } from '../../../src/rpc/method-scopes.ts';
import { rpcMethods } from '../../../src/rpc/method-table.ts';
import { startAuthApp, type AuthApp } from '../../helpers/auth-app.ts';

let t: AuthApp;
const keyWith: Partial<Record<Scope | 'none', string>> = {};
let bearerWithout: string;

beforeAll(async () => {
  t = await startAuthApp();
  keyWith.none = (await t.access.keys.create({ label: 'none', scopes: [] })).key;
  for (const scope of scopes) keyWith[scope] = (await t.access.keys.create({ label: scope, scopes: [scope] })).key;
  const client = await t.access.clients.create({ name: 'c', redirectUris: ['http://127.0.0.1/cb'], scopes: [...scopes] });
  const code = t.access.grants.issueCode({ clientId: client.info.id, redirectUri: 'http://127.0.0.1/cb', scopes: ['read_balance'], challenge: null });
  bearerWithout = (await t.access.grants.redeemCode(code, client.info.id, 'http://127.0.0.1/cb', undefined)).access_token;
});
afterAll(() => t.close());

const protectedMethods = Object.entries(methodScopes).filter(([, s]) => s !== 'public') as Array<[string, Scope]>;

describe('the table', () => {
  it('covers every method the dispatcher serves, with the scope the method itself declares', () => {
    for (const method of rpcMethods) expect([method.name, methodScopes[method.name]]).toEqual([method.name, method.scope]);
  });

  it("protects exactly the owner views, the wallet and signing calls, and the node's own miner (work itself is public)", () => {
    expect(Object.fromEntries(protectedMethods)).toEqual({
      send_transaction: 'send_transactions',
      create_address: 'send_transactions',
      sign_message: 'send_transactions',
      create_confidential_transaction: 'send_transactions',
      deploy_smart_contract: 'send_transactions',
      call_smart_contract: 'send_transactions',
      create_agent_account: 'send_transactions',
      add_session_key: 'send_transactions',
      revoke_session_key: 'send_transactions',
      set_agent_controller: 'send_transactions',
      freeze_agent_account: 'send_transactions',
      fund_energy_pool: 'send_transactions',
      create_escrow: 'send_transactions',
      claim_escrow: 'send_transactions',
      reclaim_escrow: 'send_transactions',
      dispute_escrow: 'send_transactions',
      resolve_escrow: 'send_transactions',
      start_mining: 'mine_blocks',
      stop_mining: 'mine_blocks',
    });
  });

  it("needs read_balance only for get_balance's owner and encrypted views asked for by name or by position", () => {
    expect(requiredScope('get_balance', { address: 'a' })).toBe('public');
    expect(requiredScope('get_balance', { address: 'a', privacy_view: 'owner' })).toBe('read_balance');
    expect(requiredScope('get_balance', { address: 'a', privacy_view: 'public' })).toBe('public');
    // The encrypted view lists which confidential outputs a stealth address owns: the owner's to read.
    expect(requiredScope('get_balance', ['a', true, 'encrypted'])).toBe('read_balance');
    expect(requiredScope('get_balance', ['a', true, 'owner'])).toBe('read_balance');
    expect(requiredScope('get_balance', ['a', true])).toBe('public');
    expect(requiredScope('no_such_method', {})).toBe('public');
  });

  it("needs nothing for call_smart_contract's dry run (documented public), send_transactions otherwise", () => {
    const call = { contract_address: 'a', method: 'get', caller_address: 'b' };
    expect(requiredScope('call_smart_contract', { ...call, dry_run: true })).toBe('public');
    expect(requiredScope('call_smart_contract', call)).toBe('send_transactions');
    expect(requiredScope('call_smart_contract', { ...call, dry_run: 'yes' })).toBe('send_transactions');
  });

  it('parses scope lists and refuses unknown scopes', () => {
    expect(parseScopes('mine_blocks read_balance,mine_blocks')).toEqual(['read_balance', 'mine_blocks']);
    expect(() => parseScopes('read_balance admin')).toThrow(/unknown scope 'admin'/);
  });
});

const call = async (method: string, headers: Record<string, string>) => {
  const res = await t.rpc(method, {}, headers, 'x');
  return { status: res.status, body: (await res.json()) as { error?: { code: number; data?: Record<string, unknown> } }, www: res.headers.get('www-authenticate') ?? '' };
};

describe('over HTTP, against the real dispatcher', () => {
  it.each(protectedMethods)('%s: 401 anonymous, 403 without %s, passes with it', async (method, scope) => {
    t.clock.advance(60_000);
    const anonymous = await call(method, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({ code: -32001, data: { reason: 'authentication_required', scope } });
    expect(anonymous.www).toContain(`scope="${scope}"`);

    const other = scopes.find((s) => s !== scope)!;
    for (const key of [keyWith.none!, keyWith[other]!]) {
      const refused = await call(method, { 'x-api-key': key });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: { code: -32002, data: { reason: 'missing_scope', method, scope } }, id: 'x' });
    }

    const allowed = await call(method, { 'x-api-key': keyWith[scope]! });
    expect(allowed.status).toBe(200);
    expect([-32001, -32002]).not.toContain(allowed.body.error?.code);
  });

  it('an OAuth token without the scope gets 403 with an insufficient_scope challenge', async () => {
    const res = await call('send_transaction', { authorization: `Bearer ${bearerWithout}` });
    expect(res.status).toBe(403);
    expect(res.www).toContain('error="insufficient_scope", scope="send_transactions"');
    const ok = await call('get_transaction_history', { authorization: `Bearer ${bearerWithout}` });
    expect(ok.status).toBe(200);
  });

  it('public methods need no credentials, and bad credentials are refused even for them', async () => {
    for (const [method] of Object.entries(methodScopes).filter(([, s]) => s === 'public')) {
      const res = await call(method, {});
      expect([res.status, method]).toEqual([200, method]);
    }
    const bad = await call('get_block_height', { 'x-api-key': 'not-a-key' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({ code: -32001, data: { reason: 'invalid_api_key' } });
    const both = await call('get_block_height', { 'x-api-key': keyWith.none!, authorization: `Bearer ${bearerWithout}` });
    expect(both.body.error).toMatchObject({ data: { reason: 'ambiguous_credentials' } });
  });

  it('refuses a batch as a whole when one call lacks its scope, and runs it when none does', async () => {
    const body = (second: string) => JSON.stringify([{ jsonrpc: '2.0', method: 'get_height', id: 1 }, { jsonrpc: '2.0', method: second, params: {}, id: 2 }]);
    const headers = { 'content-type': 'application/json', 'x-api-key': keyWith.read_balance! };
    const refused = await fetch(`${t.base}/rpc`, { method: 'POST', headers, body: body('stop_mining') });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: -32002, data: { method: 'stop_mining', scope: 'mine_blocks' } }, id: null });
    const ran = await fetch(`${t.base}/rpc`, { method: 'POST', headers, body: body('get_transaction_history') });
    expect(ran.status).toBe(200);
    expect(await ran.json()).toHaveLength(2);
  });

  it('serves REST balances and histories to anyone (public view), and still refuses bad credentials', async () => {
    const path = `${t.base}/api/v1/addresses/x/balance`;
    expect((await fetch(path)).status).toBe(200);
    expect((await fetch(path, { headers: { 'x-api-key': 'wk_not_a_key' } })).status).toBe(401);
    expect((await fetch(`${path}?privacy_view=public`)).status).toBe(200);
    expect((await fetch(path, { headers: { 'x-api-key': keyWith.read_balance! } })).status).toBe(200);
  });

  it("lets anyone dry-run call_smart_contract, and still refuses the call that would send", async () => {
    t.clock.advance(60_000);
    const params = { contract_address: 'rweft1notacontract', method: 'get', caller_address: 'rweft1x', dry_run: true };
    const dry = await t.rpc('call_smart_contract', params, {}, 1);
    expect(dry.status).toBe(200);
    expect([-32001, -32002]).not.toContain(((await dry.json()) as { error?: { code: number } }).error?.code);
    const sending = await t.rpc('call_smart_contract', { ...params, dry_run: false }, {}, 2);
    expect(sending.status).toBe(401);
    const withoutScope = await t.rpc('call_smart_contract', { ...params, dry_run: false }, { 'x-api-key': keyWith.read_balance! }, 3);
    expect(withoutScope.status).toBe(403);
  });

  it('the public flow at / is guarded too', async () => {
    const res = await fetch(`${t.base}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'start_mining', params: {} }) });
    expect(res.status).toBe(401);
  });
});
