/** `freeze_agent_account` (docs/api.md): Freeze (frozen: true) or unfreeze (false) an agent account (agent_freeze; owner only). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { freezeAgentAccount as method } from '../../../src/rpc/methods/freeze-agent-account.ts';
import type { RpcClient } from '../node-client.ts';

export type FreezeAgentAccountParameters = RpcMethodParams<typeof method>;
export type FreezeAgentAccountReturnType = RpcMethodResult<typeof method>;

export async function freezeAgentAccount(client: RpcClient, params: FreezeAgentAccountParameters): Promise<FreezeAgentAccountReturnType> {
  return (await client.request('freeze_agent_account', params)) as FreezeAgentAccountReturnType;
}
