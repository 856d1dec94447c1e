/** `get_block_height` (docs/api.md): Height of the selected tip (`{height}`). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getBlockHeight as method } from '../../../src/rpc/methods/get-block-height.ts';
import type { RpcClient } from '../node-client.ts';

export type GetBlockHeightParameters = RpcMethodParams<typeof method>;
export type GetBlockHeightReturnType = RpcMethodResult<typeof method>;

export async function getBlockHeight(client: RpcClient): Promise<GetBlockHeightReturnType> {
  return (await client.request('get_block_height')) as GetBlockHeightReturnType;
}
