/** `get_mining_info` (docs/api.md): The node's mining state: backends, threads, local and network hash rates. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getMiningInfo as method } from '../../../src/rpc/methods/get-mining-info.ts';
import type { RpcClient } from '../node-client.ts';

export type GetMiningInfoParameters = RpcMethodParams<typeof method>;
export type GetMiningInfoReturnType = RpcMethodResult<typeof method>;

export async function getMiningInfo(client: RpcClient): Promise<GetMiningInfoReturnType> {
  return (await client.request('get_mining_info')) as GetMiningInfoReturnType;
}
