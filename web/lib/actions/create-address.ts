/** `create_address` (docs/api.md): A new address from the node's wallet (needs send_transactions). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { createAddress as method } from '../../../src/rpc/methods/create-address.ts';
import type { RpcClient } from '../node-client.ts';

export type CreateAddressParameters = RpcMethodParams<typeof method>;
export type CreateAddressReturnType = RpcMethodResult<typeof method>;

export async function createAddress(client: RpcClient, params: CreateAddressParameters = {}): Promise<CreateAddressReturnType> {
  return (await client.request('create_address', params)) as CreateAddressReturnType;
}
