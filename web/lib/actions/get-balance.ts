/** `get_balance` (docs/api.md): An address's balance in the owner or public view (the node's figures: web/light/verified-balance.ts proves one instead). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getBalance as method } from '../../../src/rpc/methods/get-balance.ts';
import type { RpcClient } from '../node-client.ts';

export type GetBalanceParameters = RpcMethodParams<typeof method>;
export type GetBalanceReturnType = RpcMethodResult<typeof method>;

export async function getBalance(client: RpcClient, params: GetBalanceParameters): Promise<GetBalanceReturnType> {
  return (await client.request('get_balance', params)) as GetBalanceReturnType;
}
