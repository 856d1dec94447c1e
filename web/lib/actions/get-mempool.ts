/** `get_mempool` (docs/api.md): Pending transactions, highest fee rate first, paged by `limit`/`offset`, with the pool's totals. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getMempool as method } from '../../../src/rpc/methods/get-mempool.ts';
import type { RpcClient } from '../node-client.ts';

export type GetMempoolParameters = RpcMethodParams<typeof method>;
export type GetMempoolReturnType = RpcMethodResult<typeof method>;

export async function getMempool(client: RpcClient, params: GetMempoolParameters): Promise<GetMempoolReturnType> {
  return (await client.request('get_mempool', params)) as GetMempoolReturnType;
}
