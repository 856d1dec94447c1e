/**
 * Scopes (docs/design.md "Node APIs and access", docs/auth.md "Scopes"): what credentials may grant. Each RPC method
 * declares the scope it needs (`scope` in src/rpc/method.ts, and `scopeOf` where it depends on the parsed params, as
 * get_balance's owner view does; src/rpc/method-scopes.ts reads them); the dispatcher checks it once per call. Public reads need none. `read_balance`
 * unlocks owner views; `send_transactions` the wallet and signing methods and the privacy and contract calls that
 * spend; `mine_blocks` mining control. Unknown methods are public: the dispatcher answers them with -32601.
 */
export const scopes = ['read_balance', 'send_transactions', 'mine_blocks'] as const;
export type Scope = (typeof scopes)[number];
export type Requirement = Scope | 'public';

function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** Parses a space- or comma-separated scope list (OAuth `scope`, the CLI's --scopes); throws on an unknown scope. */
export function parseScopes(text: string): Scope[] {
  const names = text.split(/[\s,]+/).filter((s) => s !== '');
  const unknown = names.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new RangeError(`unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; known: ${scopes.join(', ')}`);
  return scopes.filter((s) => names.includes(s));
}
