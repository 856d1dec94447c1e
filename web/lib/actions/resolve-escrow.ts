/** `resolve_escrow` (docs/api.md): As the arbiter, split a disputed escrow between agent and client (escrow_resolve). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { resolveEscrow as method } from '../../../src/rpc/methods/resolve-escrow.ts';
import type { RpcClient } from '../node-client.ts';

export type ResolveEscrowParameters = RpcMethodParams<typeof method>;
export type ResolveEscrowReturnType = RpcMethodResult<typeof method>;

export async function resolveEscrow(client: RpcClient, params: ResolveEscrowParameters): Promise<ResolveEscrowReturnType> {
  return (await client.request('resolve_escrow', params)) as ResolveEscrowReturnType;
}
