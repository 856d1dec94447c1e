/** `stop_mining` (docs/api.md): Stops the node's miners (needs mine_blocks): the get_mining_info object plus `stopped`. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { stopMining as method } from '../../../src/rpc/methods/stop-mining.ts';
import type { RpcClient } from '../node-client.ts';

export type StopMiningParameters = RpcMethodParams<typeof method>;
export type StopMiningReturnType = RpcMethodResult<typeof method>;

export async function stopMining(client: RpcClient): Promise<StopMiningReturnType> {
  return (await client.request('stop_mining')) as StopMiningReturnType;
}
