/** `claim_escrow` (docs/api.md): Claim an escrow for its agent account (escrow_claim), with the client's receipt or once its dispute window is over. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { claimEscrow as method } from '../../../src/rpc/methods/claim-escrow.ts';
import type { RpcClient } from '../node-client.ts';

export type ClaimEscrowParameters = RpcMethodParams<typeof method>;
export type ClaimEscrowReturnType = RpcMethodResult<typeof method>;

export async function claimEscrow(client: RpcClient, params: ClaimEscrowParameters): Promise<ClaimEscrowReturnType> {
  return (await client.request('claim_escrow', params)) as ClaimEscrowReturnType;
}
