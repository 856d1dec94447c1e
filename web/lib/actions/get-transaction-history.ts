/** `get_transaction_history` (docs/api.md): An address's transactions, newest first, paged by `limit`/`offset`. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getTransactionHistory as method } from '../../../src/rpc/methods/get-transaction-history.ts';
import type { RpcClient } from '../node-client.ts';

export type GetTransactionHistoryParameters = RpcMethodParams<typeof method>;
export type GetTransactionHistoryReturnType = RpcMethodResult<typeof method>;

export async function getTransactionHistory(client: RpcClient, params: GetTransactionHistoryParameters): Promise<GetTransactionHistoryReturnType> {
  return (await client.request('get_transaction_history', params)) as GetTransactionHistoryReturnType;
}
