/** `get_contract_state` (docs/api.md): One stored value of a contract by variable name and key, optionally with a state proof (docs/contracts.md). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getContractState as method } from '../../../src/rpc/methods/get-contract-state.ts';
import type { RpcClient } from '../node-client.ts';

export type GetContractStateParameters = RpcMethodParams<typeof method>;
export type GetContractStateReturnType = RpcMethodResult<typeof method>;

export async function getContractState(client: RpcClient, params: GetContractStateParameters): Promise<GetContractStateReturnType> {
  return (await client.request('get_contract_state', params)) as GetContractStateReturnType;
}
