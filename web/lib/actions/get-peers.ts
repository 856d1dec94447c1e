/** `get_peers` (docs/api.md): The node's connected peers. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getPeers as method } from '../../../src/rpc/methods/get-peers.ts';
import type { RpcClient } from '../node-client.ts';

export type GetPeersParameters = RpcMethodParams<typeof method>;
export type GetPeersReturnType = RpcMethodResult<typeof method>;

export async function getPeers(client: RpcClient): Promise<GetPeersReturnType> {
  return (await client.request('get_peers')) as GetPeersReturnType;
}
