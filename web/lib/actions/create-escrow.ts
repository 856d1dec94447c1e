/** `create_escrow` (docs/api.md): Lock coins for an agent account and a task (escrow_create); returns the escrow id (A2A escrowHash). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { createEscrow as method } from '../../../src/rpc/methods/create-escrow.ts';
import type { RpcClient } from '../node-client.ts';

export type CreateEscrowParameters = RpcMethodParams<typeof method>;
export type CreateEscrowReturnType = RpcMethodResult<typeof method>;

export async function createEscrow(client: RpcClient, params: CreateEscrowParameters): Promise<CreateEscrowReturnType> {
  return (await client.request('create_escrow', params)) as CreateEscrowReturnType;
}
