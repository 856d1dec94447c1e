/** `get_transaction` (docs/api.md): A transaction by hash, pending or accepted, with its status and confirmations. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getTransaction as method } from '../../../src/rpc/methods/get-transaction.ts';
import type { RpcClient } from '../node-client.ts';

export type GetTransactionParameters = RpcMethodParams<typeof method>;
export type GetTransactionReturnType = RpcMethodResult<typeof method>;

export async function getTransaction(client: RpcClient, params: GetTransactionParameters): Promise<GetTransactionReturnType> {
  return (await client.request('get_transaction', params)) as GetTransactionReturnType;
}
