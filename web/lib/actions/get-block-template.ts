/** `get_block_template` (docs/api.md): A block template paying `miner_address` (public: anyone may mine): header bytes with nonce 0, target, transactions. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getBlockTemplate as method } from '../../../src/rpc/methods/get-block-template.ts';
import type { RpcClient } from '../node-client.ts';

export type GetBlockTemplateParameters = RpcMethodParams<typeof method>;
export type GetBlockTemplateReturnType = RpcMethodResult<typeof method>;

export async function getBlockTemplate(client: RpcClient, params: GetBlockTemplateParameters): Promise<GetBlockTemplateReturnType> {
  return (await client.request('get_block_template', params)) as GetBlockTemplateReturnType;
}
