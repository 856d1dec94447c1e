/** `send_transaction` (docs/api.md): A transfer signed by the node's wallet (needs send_transactions; over HTTP with an API key). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { sendTransaction as method } from '../../../src/rpc/methods/send-transaction.ts';
import type { RpcClient } from '../node-client.ts';

export type SendTransactionParameters = RpcMethodParams<typeof method>;
export type SendTransactionReturnType = RpcMethodResult<typeof method>;

export async function sendTransaction(client: RpcClient, params: SendTransactionParameters): Promise<SendTransactionReturnType> {
  return (await client.request('send_transaction', params)) as SendTransactionReturnType;
}
