/** `get_escrow` (docs/api.md): A task escrow by id (status, parties, amount, timeout), optionally with a state proof against a header. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { getEscrow as method } from '../../../src/rpc/methods/get-escrow.ts';
import type { RpcClient } from '../node-client.ts';

export type GetEscrowParameters = RpcMethodParams<typeof method>;
export type GetEscrowReturnType = RpcMethodResult<typeof method>;

export async function getEscrow(client: RpcClient, params: GetEscrowParameters): Promise<GetEscrowReturnType> {
  return (await client.request('get_escrow', params)) as GetEscrowReturnType;
}
