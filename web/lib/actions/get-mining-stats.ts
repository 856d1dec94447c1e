/** `get_mining_stats` (docs/api.md): Mining statistics over a period (default 24h), with a hash-rate series. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getMiningStats as method } from '../../../src/rpc/methods/get-mining-stats.ts';
import type { RpcClient } from '../node-client.ts';

export type GetMiningStatsParameters = RpcMethodParams<typeof method>;
export type GetMiningStatsReturnType = RpcMethodResult<typeof method>;

export async function getMiningStats(client: RpcClient, params: GetMiningStatsParameters = {}): Promise<GetMiningStatsReturnType> {
  return (await client.request('get_mining_stats', params)) as GetMiningStatsReturnType;
}
