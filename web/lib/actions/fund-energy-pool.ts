/** `fund_energy_pool` (docs/api.md): Move coins from a node-wallet address into an agent account's energy pool (agent_fund_energy_pool). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { fundEnergyPool as method } from '../../../src/rpc/methods/fund-energy-pool.ts';
import type { RpcClient } from '../node-client.ts';

export type FundEnergyPoolParameters = RpcMethodParams<typeof method>;
export type FundEnergyPoolReturnType = RpcMethodResult<typeof method>;

export async function fundEnergyPool(client: RpcClient, params: FundEnergyPoolParameters): Promise<FundEnergyPoolReturnType> {
  return (await client.request('fund_energy_pool', params)) as FundEnergyPoolReturnType;
}
