/** `submit_block` (docs/api.md): A solved block (0x-hex) to the node (public: its PoW is its authority): accepted, duplicate or orphan. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { submitBlock as method } from '../../../src/rpc/methods/submit-block.ts';
import type { RpcClient } from '../node-client.ts';

export type SubmitBlockParameters = RpcMethodParams<typeof method>;
export type SubmitBlockReturnType = RpcMethodResult<typeof method>;

export async function submitBlock(client: RpcClient, params: SubmitBlockParameters): Promise<SubmitBlockReturnType> {
  return (await client.request('submit_block', params)) as SubmitBlockReturnType;
}
