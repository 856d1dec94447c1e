/** `reclaim_escrow` (docs/api.md): Take a timed-out, unclaimed escrow back to its client (escrow_reclaim). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { reclaimEscrow as method } from '../../../src/rpc/methods/reclaim-escrow.ts';
import type { RpcClient } from '../node-client.ts';

export type ReclaimEscrowParameters = RpcMethodParams<typeof method>;
export type ReclaimEscrowReturnType = RpcMethodResult<typeof method>;

export async function reclaimEscrow(client: RpcClient, params: ReclaimEscrowParameters): Promise<ReclaimEscrowReturnType> {
  return (await client.request('reclaim_escrow', params)) as ReclaimEscrowReturnType;
}
