/** `get_network_info` (docs/api.md): Network id, version, height, difficulty, estimated hash rate, peers, GPU and energy shares. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getNetworkInfo as method } from '../../../src/rpc/methods/get-network-info.ts';
import type { RpcClient } from '../node-client.ts';

export type GetNetworkInfoParameters = RpcMethodParams<typeof method>;
export type GetNetworkInfoReturnType = RpcMethodResult<typeof method>;

export async function getNetworkInfo(client: RpcClient): Promise<GetNetworkInfoReturnType> {
  return (await client.request('get_network_info')) as GetNetworkInfoReturnType;
}
