/** `get_reward_history` (docs/api.md): An address's mining rewards, newest first, paged by `limit`/`offset`. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getRewardHistory as method } from '../../../src/rpc/methods/get-reward-history.ts';
import type { RpcClient } from '../node-client.ts';

export type GetRewardHistoryParameters = RpcMethodParams<typeof method>;
export type GetRewardHistoryReturnType = RpcMethodResult<typeof method>;

export async function getRewardHistory(client: RpcClient, params: GetRewardHistoryParameters): Promise<GetRewardHistoryReturnType> {
  return (await client.request('get_reward_history', params)) as GetRewardHistoryReturnType;
}
