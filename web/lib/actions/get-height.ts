/** `get_height` (docs/api.md): The selected tip's height, hash, blue and DAA scores, and the DAG's block count. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getHeight as method } from '../../../src/rpc/methods/get-height.ts';
import type { RpcClient } from '../node-client.ts';

export type GetHeightParameters = RpcMethodParams<typeof method>;
export type GetHeightReturnType = RpcMethodResult<typeof method>;

export async function getHeight(client: RpcClient): Promise<GetHeightReturnType> {
  return (await client.request('get_height')) as GetHeightReturnType;
}
