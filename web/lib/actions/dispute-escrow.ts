/** `dispute_escrow` (docs/api.md): Dispute a locked escrow with an arbiter, as its client or its agent (escrow_dispute). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { disputeEscrow as method } from '../../../src/rpc/methods/dispute-escrow.ts';
import type { RpcClient } from '../node-client.ts';

export type DisputeEscrowParameters = RpcMethodParams<typeof method>;
export type DisputeEscrowReturnType = RpcMethodResult<typeof method>;

export async function disputeEscrow(client: RpcClient, params: DisputeEscrowParameters): Promise<DisputeEscrowReturnType> {
  return (await client.request('dispute_escrow', params)) as DisputeEscrowReturnType;
}
