/** `verify_message` (docs/api.md): Whether a sign_message signature is valid for an address. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { verifyMessage as method } from '../../../src/rpc/methods/verify-message.ts';
import type { RpcClient } from '../node-client.ts';

export type VerifyMessageParameters = RpcMethodParams<typeof method>;
export type VerifyMessageReturnType = RpcMethodResult<typeof method>;

export async function verifyMessage(client: RpcClient, params: VerifyMessageParameters): Promise<VerifyMessageReturnType> {
  return (await client.request('verify_message', params)) as VerifyMessageReturnType;
}
