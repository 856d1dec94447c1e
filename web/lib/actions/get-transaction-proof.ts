/** `get_transaction_proof` (docs/api.md): A transaction's bytes and Merkle path to its block's tx root (check it with src/light/verify-transaction.ts). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getTransactionProof as method } from '../../../src/rpc/methods/get-transaction-proof.ts';
import type { RpcClient } from '../node-client.ts';

export type GetTransactionProofParameters = RpcMethodParams<typeof method>;
export type GetTransactionProofReturnType = RpcMethodResult<typeof method>;

export async function getTransactionProof(client: RpcClient, params: GetTransactionProofParameters): Promise<GetTransactionProofReturnType> {
  return (await client.request('get_transaction_proof', params)) as GetTransactionProofReturnType;
}
