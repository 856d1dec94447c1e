/** `create_agent_account` (docs/api.md): Make a node-wallet address an on-chain agent account (agent_create), signed by the address's key. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { createAgentAccount as method } from '../../../src/rpc/methods/create-agent-account.ts';
import type { RpcClient } from '../node-client.ts';

export type CreateAgentAccountParameters = RpcMethodParams<typeof method>;
export type CreateAgentAccountReturnType = RpcMethodResult<typeof method>;

export async function createAgentAccount(client: RpcClient, params: CreateAgentAccountParameters): Promise<CreateAgentAccountReturnType> {
  return (await client.request('create_agent_account', params)) as CreateAgentAccountReturnType;
}
