/** `get_proof` (docs/api.md): A state proof of an address's account against a header's state root (check it with src/light/verify-account.ts). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getProof as method } from '../../../src/rpc/methods/get-proof.ts';
import type { RpcClient } from '../node-client.ts';

export type GetProofParameters = RpcMethodParams<typeof method>;
export type GetProofReturnType = RpcMethodResult<typeof method>;

export async function getProof(client: RpcClient, params: GetProofParameters): Promise<GetProofReturnType> {
  return (await client.request('get_proof', params)) as GetProofReturnType;
}
