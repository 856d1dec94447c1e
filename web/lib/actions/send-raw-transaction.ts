/** `send_raw_transaction` (docs/api.md): A transaction signed in the tab (canonical bytes as 0x-hex) into the mempool: `{hash, status}`. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { sendRawTransaction as method } from '../../../src/rpc/methods/send-raw-transaction.ts';
import type { RpcClient } from '../node-client.ts';

export type SendRawTransactionParameters = RpcMethodParams<typeof method>;
export type SendRawTransactionReturnType = RpcMethodResult<typeof method>;

export async function sendRawTransaction(client: RpcClient, params: SendRawTransactionParameters): Promise<SendRawTransactionReturnType> {
  return (await client.request('send_raw_transaction', params)) as SendRawTransactionReturnType;
}
