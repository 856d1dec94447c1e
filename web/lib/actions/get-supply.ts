/** `get_supply` (docs/api.md): Coin supply — cap, emitted, burnt, circulating, fees — and the emission schedule at the tip. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getSupply as method } from '../../../src/rpc/methods/get-supply.ts';
import type { RpcClient } from '../node-client.ts';

export type GetSupplyParameters = RpcMethodParams<typeof method>;
export type GetSupplyReturnType = RpcMethodResult<typeof method>;

export async function getSupply(client: RpcClient, params: GetSupplyParameters = {}): Promise<GetSupplyReturnType> {
  return (await client.request('get_supply', params)) as GetSupplyReturnType;
}
