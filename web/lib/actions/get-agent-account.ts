/** `get_agent_account` (docs/api.md): An on-chain agent account (keys, frozen, energy pool, reputation), optionally with a state proof against a header. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getAgentAccount as method } from '../../../src/rpc/methods/get-agent-account.ts';
import type { RpcClient } from '../node-client.ts';

export type GetAgentAccountParameters = RpcMethodParams<typeof method>;
export type GetAgentAccountReturnType = RpcMethodResult<typeof method>;

export async function getAgentAccount(client: RpcClient, params: GetAgentAccountParameters): Promise<GetAgentAccountReturnType> {
  return (await client.request('get_agent_account', params)) as GetAgentAccountReturnType;
}
