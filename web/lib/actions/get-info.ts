/** `get_info` (docs/api.md): Node summary: version, network, chain id, address prefix, DAG size and tips, sync state, mempool size. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getInfo as method } from '../../../src/rpc/methods/get-info.ts';
import type { RpcClient } from '../node-client.ts';

export type GetInfoParameters = RpcMethodParams<typeof method>;
export type GetInfoReturnType = RpcMethodResult<typeof method>;

export async function getInfo(client: RpcClient): Promise<GetInfoReturnType> {
  return (await client.request('get_info')) as GetInfoReturnType;
}
