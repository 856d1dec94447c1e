/**
 * The scope each RPC method needs, read from the method table (docs/auth.md "Scopes"). It lives in rpc because it
 * reads the methods; src/auth knows only the scopes themselves (auth sits below rpc: the layers test).
 */
import type { Requirement } from '../auth/scopes.ts';
import { rpcMethods } from './method-table.ts';
import { parseParams } from './params.ts';

/** What each method declares, as data (docs, the agreement test): served methods and rpc.discover. */
export const methodScopes: Readonly<Record<string, Requirement>> = Object.freeze({
  ...Object.fromEntries(rpcMethods.map((m) => [m.name, m.scope] as const)),
  'rpc.discover': 'public',
});

const byName = new Map(rpcMethods.map((m) => [m.name, m] as const));

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
