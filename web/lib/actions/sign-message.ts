/** `sign_message` (docs/api.md): A message signed with a key of the node's wallet (needs send_transactions). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { signMessage as method } from '../../../src/rpc/methods/sign-message.ts';
import type { RpcClient } from '../node-client.ts';

export type SignMessageParameters = RpcMethodParams<typeof method>;
export type SignMessageReturnType = RpcMethodResult<typeof method>;

export async function signMessage(client: RpcClient, params: SignMessageParameters): Promise<SignMessageReturnType> {
  return (await client.request('sign_message', params)) as SignMessageReturnType;
}
