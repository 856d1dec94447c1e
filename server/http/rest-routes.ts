/**
 * The seed's read-only REST API (GET, `/api/v1/...`), each route a view over a JSON-RPC method so validation, errors
 * metrics and scope checks are the same. Errors: `{"error": {code, message, reason, data}}` with the status of the
 * error's kind (src/errors.ts, http-errors.ts).
 */
import type { Context, Hono } from 'hono';
import { InvalidParamsError } from '../../src/rpc/errors.ts';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import { explorerStats } from '../../src/rpc/explorer-stats.ts';
import { formatUnits } from '../../src/crypto/amount.ts';
import { need } from '../../src/rpc/method.ts';
import { stringifyJson } from '../../src/rpc/json.ts';
import { accessErrorResponse } from '../auth/auth-responses.ts';
import { authOf } from '../auth/authenticate.ts';
import { buildOpenApi } from './openapi.ts';

function booleanQuery(c: Context, name: string, fallback: boolean): boolean {
  const value = c.req.query(name);
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new InvalidParamsError(`${name} must be true or false, got '${value}'`, [{ path: name, message: 'expected true or false' }]);
}

function integerQuery(c: Context, name: string): number | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw new InvalidParamsError(`${name} must be a non-negative integer, got '${value}'`, [{ path: name, message: 'expected a non-negative integer' }]);
  }
  return Number(value);
}

export function mountRestRoutes(app: Hono, dispatcher: Dispatcher, version: string): void {
  const view = (build: (c: Context) => Promise<unknown> | unknown) => async (c: Context) => {
    try {
      // stringifyJson: block nonces are u64 bigints printed as exact integers.
      return c.body(stringifyJson(await build(c)), 200, { 'content-type': 'application/json; charset=utf-8' });
    } catch (error) {
      // The kind's status from the error table; access refusals carry their challenges (WWW-Authenticate).
      return accessErrorResponse(error, null, {}, true);
    }
  };
  /** A view's call: the dispatcher checks the method's scope against the caller, as for JSON-RPC. */
  const call = (method: string, params: Record<string, unknown>, c: Context) => {
    const auth = authOf(c);
    const access = auth ? { identity: auth.identity, ...(auth.error ? { refusal: auth.error } : {}) } : {};
    return dispatcher.call(method, params, { transport: 'rest', id: undefined, ...access });
  };
  const services = dispatcher.services;

  app.get('/api/v1/network/info', view((c) => {
    const ledger = need({ services, transport: 'rest', id: undefined }, 'ledger', 'GET /api/v1/network/info');
    const tip = services.chain.selectedTip();
    const supply = ledger.supply();
    return call('get_network_info', {}, c).then((info) => {
      const i = info as Record<string, unknown>;
      return {
        network_id: i.network_id,
        version,
        block_height: tip.height,
        difficulty: i.difficulty,
        total_supply: formatUnits(supply.totalUnits),
        circulating_supply: formatUnits(supply.circulatingUnits),
      };
    });
  }));
  app.get('/api/v1/blocks/latest', view((c) => call('get_latest_block', { include_transactions: booleanQuery(c, 'include_transactions', true) }, c)));
  app.get('/api/v1/blocks/:id', view((c) => {
    const id = c.req.param('id')!;
    const include = booleanQuery(c, 'include_transactions', true);
    if (/^\d{1,15}$/.test(id)) return call('get_block', { height: Number(id), include_transactions: include }, c);
    if (/^(0x)?[0-9a-fA-F]{64}$/.test(id)) return call('get_block', { hash: id, include_transactions: include }, c);
    throw new InvalidParamsError(`'${id}' is neither a height nor a 0x-prefixed 64-digit block hash`, [{ path: 'id', message: 'expected a height or a hash' }]);
  }));
  app.get('/api/v1/transactions/:hash', view((c) => call('get_transaction', { hash: c.req.param('hash') }, c)));
  app.get('/api/v1/addresses/:address/balance', view(async (c) => {
    // Anonymous callers get the public view (pending_balance = committed balance), owners the owner view.
    const b = (await call('get_balance', { address: c.req.param('address') }, c)) as Record<string, unknown>;
    return { address: b.address, balance: b.balance, pending_balance: b.pending_balance, energy: b.energy, nonce: b.nonce };
  }));
  app.get('/api/v1/addresses/:address/transactions', view((c) => {
    const params: Record<string, unknown> = { address: c.req.param('address') };
    const limit = integerQuery(c, 'limit');
    const offset = integerQuery(c, 'offset');
    if (limit !== undefined) params.limit = limit;
    if (offset !== undefined) params.offset = offset;
    params.include_pending = booleanQuery(c, 'include_pending', false);
    return call('get_transaction_history', params, c);
  }));
  // Agent accounts and escrows (docs/settlement.md); `?proof=true` adds the state proof.
  app.get('/api/v1/agents/:address', view((c) => call('get_agent_account', { agent_account: c.req.param('address'), proof: booleanQuery(c, 'proof', false) }, c)));
  app.get('/api/v1/escrows/:id', view((c) => call('get_escrow', { escrow_id: c.req.param('id'), proof: booleanQuery(c, 'proof', false) }, c)));
  app.get('/api/v1/stats', view(() => explorerStats(services)));
  let openApi: object | undefined;
  app.get('/api/v1/openapi.json', (c) => c.json((openApi ??= buildOpenApi(version, services.chain.params.name))));
}
