/** `get_block` (docs/api.md): A block by selected-chain `height` or by `hash` (exactly one), with its transactions unless `include_transactions: false`. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getBlock as method } from '../../../src/rpc/methods/get-block.ts';
import type { RpcClient } from '../node-client.ts';

export type GetBlockParameters = RpcMethodParams<typeof method>;
export type GetBlockReturnType = RpcMethodResult<typeof method>;

export async function getBlock(client: RpcClient, params: GetBlockParameters): Promise<GetBlockReturnType> {
  return (await client.request('get_block', params)) as GetBlockReturnType;
}
