/** `deploy_smart_contract` (docs/api.md): Prepare a Wasm contract, dry-run its constructor, sign the deploy with the node wallet and submit it (docs/contracts.md). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { deploySmartContract as method } from '../../../src/rpc/methods/deploy-smart-contract.ts';
import type { RpcClient } from '../node-client.ts';

export type DeploySmartContractParameters = RpcMethodParams<typeof method>;
export type DeploySmartContractReturnType = RpcMethodResult<typeof method>;

export async function deploySmartContract(client: RpcClient, params: DeploySmartContractParameters): Promise<DeploySmartContractReturnType> {
  return (await client.request('deploy_smart_contract', params)) as DeploySmartContractReturnType;
}
