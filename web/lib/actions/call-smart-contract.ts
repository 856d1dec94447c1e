/** `call_smart_contract` (docs/api.md): Run a contract method: a view when it changes nothing, else a signed transaction (docs/contracts.md). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { callSmartContract as method } from '../../../src/rpc/methods/call-smart-contract.ts';
import type { RpcClient } from '../node-client.ts';

export type CallSmartContractParameters = RpcMethodParams<typeof method>;
export type CallSmartContractReturnType = RpcMethodResult<typeof method>;

export async function callSmartContract(client: RpcClient, params: CallSmartContractParameters): Promise<CallSmartContractReturnType> {
  return (await client.request('call_smart_contract', params)) as CallSmartContractReturnType;
}
