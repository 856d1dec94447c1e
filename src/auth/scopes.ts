/**
 * The method → scope table (docs/design.md "Node APIs and access", docs/auth.md "Scopes"): which JSON-RPC methods need credentials, and which
 * scope. Public reads need none. `read_balance` unlocks owner views (get_balance's `privacy_view: owner`, the wallet
 * history); `send_transactions` the wallet and signing methods and the privacy and contract calls that spend;
 * `mine_blocks` mining control. Unknown methods are public: the dispatcher answers them with -32601.
 *
 * Each RPC method also names its scope in src/rpc/method-table.ts; test/auth-scopes.test.ts keeps the two equal.
 */

export const scopes = ['read_balance', 'send_transactions', 'mine_blocks'] as const;
export type Scope = (typeof scopes)[number];
export type Requirement = Scope | 'public';

const table: Readonly<Record<string, Requirement>> = {
  // Public reads: chain data anyone can verify, and calls whose authority is inside the request itself.
  get_network_info: 'public',
  get_info: 'public',
  get_height: 'public',
  get_block_height: 'public',
  get_block: 'public',
  get_latest_block: 'public',
  get_transaction: 'public',
  get_proof: 'public',
  get_transaction_proof: 'public',
  get_peers: 'public',
  get_mining_info: 'public',
  get_mining_stats: 'public',
  get_contract_state: 'public',
  generate_stealth_address: 'public',
  verify_message: 'public',
  // A raw transaction carries its own signature: the key that signed it is the authority (Bitcoin Core's rule).
  send_raw_transaction: 'public',
  subscribe: 'public',
  unsubscribe: 'public',
  'rpc.discover': 'public',
  // Chain data is public (docs/auth.md "Public reads"): an address's committed balance and its history. Only
  // get_balance's owner view (pending debits, later confidential balances) needs read_balance: see requiredScope.
  get_balance: 'public',
  get_transaction_history: 'public',
  // The node's wallet spends or signs.
  send_transaction: 'send_transactions',
  create_address: 'send_transactions',
  sign_message: 'send_transactions',
  create_confidential_transaction: 'send_transactions',
  deploy_smart_contract: 'send_transactions',
  call_smart_contract: 'send_transactions',
  // Mining control and the miner's work loop.
  start_mining: 'mine_blocks',
  stop_mining: 'mine_blocks',
  get_block_template: 'mine_blocks',
  submit_block: 'mine_blocks',
};

/** The table as data (docs, the agreement test). */
export const methodScopes: Readonly<Record<string, Requirement>> = table;

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** Positional params map onto names in the method's declared order (the dispatcher's rule). */
function param(params: unknown, name: string, position: number): unknown {
  if (Array.isArray(params)) return params[position];
  if (typeof params === 'object' && params !== null) return (params as Record<string, unknown>)[name];
  return undefined;
}

/**
 * The scope one call needs. get_balance is the one method whose requirement depends on its params: asking for the
 * `owner` view needs read_balance; the `public` and `encrypted` views, and no view at all (answered with the public
 * view for callers without read_balance), are public.
 */
export function requiredScope(method: string, params: unknown): Requirement {
  if (method === 'get_balance') return param(params, 'privacy_view', 2) === 'owner' ? 'read_balance' : 'public';
  return table[method] ?? 'public';
}

/** The scope `granted` lacks for this call, or undefined when it may proceed. */
export function missingScope(granted: ReadonlySet<string>, method: string, params: unknown): Scope | undefined {
  const needed = requiredScope(method, params);
  return needed === 'public' || granted.has(needed) ? undefined : needed;
}

/** Parses a space- or comma-separated scope list (OAuth `scope`, the CLI's --scopes); throws on an unknown scope. */
export function parseScopes(text: string): Scope[] {
  const names = text.split(/[\s,]+/).filter((s) => s !== '');
  const unknown = names.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new RangeError(`unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; known: ${scopes.join(', ')}`);
  return scopes.filter((s) => names.includes(s));
}
