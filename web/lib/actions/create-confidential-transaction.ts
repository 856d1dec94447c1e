/** `create_confidential_transaction` (docs/api.md): A private transaction (shield, ring transfer or unshield) built and signed by the node's wallet (needs send_transactions). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { createConfidentialTransaction as method } from '../../../src/rpc/methods/create-confidential-transaction.ts';
import type { RpcClient } from '../node-client.ts';

export type CreateConfidentialTransactionParameters = RpcMethodParams<typeof method>;
export type CreateConfidentialTransactionReturnType = RpcMethodResult<typeof method>;

export async function createConfidentialTransaction(client: RpcClient, params: CreateConfidentialTransactionParameters): Promise<CreateConfidentialTransactionReturnType> {
  return (await client.request('create_confidential_transaction', params)) as CreateConfidentialTransactionReturnType;
}
