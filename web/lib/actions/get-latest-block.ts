/** `get_latest_block` (docs/api.md): The selected tip as a block, with its transactions unless `include_transactions: false`. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getLatestBlock as method } from '../../../src/rpc/methods/get-latest-block.ts';
import type { RpcClient } from '../node-client.ts';

export type GetLatestBlockParameters = RpcMethodParams<typeof method>;
export type GetLatestBlockReturnType = RpcMethodResult<typeof method>;

export async function getLatestBlock(client: RpcClient, params: GetLatestBlockParameters = {}): Promise<GetLatestBlockReturnType> {
  return (await client.request('get_latest_block', params)) as GetLatestBlockReturnType;
}
