/** `start_mining` (docs/api.md): Starts or reconfigures the node's miners (needs mine_blocks): the get_mining_info object. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { startMining as method } from '../../../src/rpc/methods/start-mining.ts';
import type { RpcClient } from '../node-client.ts';

export type StartMiningParameters = RpcMethodParams<typeof method>;
export type StartMiningReturnType = RpcMethodResult<typeof method>;

export async function startMining(client: RpcClient, params: StartMiningParameters = {}): Promise<StartMiningReturnType> {
  return (await client.request('start_mining', params)) as StartMiningReturnType;
}
