/** `add_session_key` (docs/api.md): Add a scoped, capped, expiring session key to an agent account (agent_add_session_key). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { addSessionKey as method } from '../../../src/rpc/methods/add-session-key.ts';
import type { RpcClient } from '../node-client.ts';

export type AddSessionKeyParameters = RpcMethodParams<typeof method>;
export type AddSessionKeyReturnType = RpcMethodResult<typeof method>;

export async function addSessionKey(client: RpcClient, params: AddSessionKeyParameters): Promise<AddSessionKeyReturnType> {
  return (await client.request('add_session_key', params)) as AddSessionKeyReturnType;
}
