/** `revoke_session_key` (docs/api.md): Revoke a session key of an agent account (agent_revoke_session_key). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { revokeSessionKey as method } from '../../../src/rpc/methods/revoke-session-key.ts';
import type { RpcClient } from '../node-client.ts';

export type RevokeSessionKeyParameters = RpcMethodParams<typeof method>;
export type RevokeSessionKeyReturnType = RpcMethodResult<typeof method>;

export async function revokeSessionKey(client: RpcClient, params: RevokeSessionKeyParameters): Promise<RevokeSessionKeyReturnType> {
  return (await client.request('revoke_session_key', params)) as RevokeSessionKeyReturnType;
}
