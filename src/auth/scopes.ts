/**
 * Scopes (docs/design.md "Node APIs and access", docs/auth.md "Scopes"): what credentials may grant. Each RPC method
 * declares the scope it needs (`scope` in src/rpc/method.ts, and `scopeOf` where it depends on the parsed params, as
 * get_balance's owner view does); the dispatcher checks it once per call. Public reads need none. `read_balance`
 * unlocks owner views; `send_transactions` the wallet and signing methods and the privacy and contract calls that
 * spend; `mine_blocks` mining control. Unknown methods are public: the dispatcher answers them with -32601.
 */
import { rpcMethods } from '../rpc/method-table.ts';
import { parseParams } from '../rpc/params.ts';

export const scopes = ['read_balance', 'send_transactions', 'mine_blocks'] as const;
export type Scope = (typeof scopes)[number];
export type Requirement = Scope | 'public';

/** What each method declares, as data (docs, the agreement test): served methods and rpc.discover. */
export const methodScopes: Readonly<Record<string, Requirement>> = Object.freeze({
  ...Object.fromEntries(rpcMethods.map((m) => [m.name, m.scope] as const)),
  'rpc.discover': 'public',
});

const byName = new Map(rpcMethods.map((m) => [m.name, m] as const));

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/**
 * The scope one call needs, as the dispatcher decides it: the method's declared `scope`, or where it declares
 * `scopeOf`, that of its parsed params, whichever way the two differ (get_balance's owner view needs more than its
 * declared public; call_smart_contract's dry run less than its declared send_transactions). Params that do not
 * parse need the declared `scope`: the call fails with -32602 after that check.
 */
export function requiredScope(method: string, params: unknown): Requirement {
  const declared = byName.get(method);
  if (declared === undefined) return methodScopes[method] ?? 'public';
  if (declared.scopeOf === undefined) return declared.scope;
  try {
    return declared.scopeOf(parseParams(declared, params));
  } catch {
    return declared.scope;
  }
}

/** Parses a space- or comma-separated scope list (OAuth `scope`, the CLI's --scopes); throws on an unknown scope. */
export function parseScopes(text: string): Scope[] {
  const names = text.split(/[\s,]+/).filter((s) => s !== '');
  const unknown = names.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new RangeError(`unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; known: ${scopes.join(', ')}`);
  return scopes.filter((s) => names.includes(s));
}
