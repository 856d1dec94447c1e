// Transactions on a regtest node from the test process: an address of the node's own wallet (create_address, admin
// key), funded by blocks mined to it from here (mineOneBlock), and transfers signed by the node (send_transaction),
// so explorer tests have confirmed and pending transactions to show.
import { mineOneBlock } from './submit-block.ts';

async function rpc<T>(url: string, apiKey: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const r = await fetch(`${url}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
  const body = (await r.json()) as { result?: T; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

export interface NodeWallet {
  readonly address: string;
  /** A transfer signed by the node's wallet, left in the mempool until the next block; its hash. */
  send(to: string, amount: number): Promise<string>;
  /** Mines one block (to the wallet's address), which confirms what is pending; its hash. */
  mine(): Promise<string>;
}

export async function fundedNodeWallet(url: string, apiKey: string, blocks = 2): Promise<NodeWallet> {
  const { address } = await rpc<{ address: string }>(url, apiKey, 'create_address');
  const mine = () => mineOneBlock(url, apiKey, address);
  for (let i = 0; i < blocks; i++) await mine();
  return {
    address,
    mine,
    async send(to, amount) {
      return (await rpc<{ hash: string }>(url, apiKey, 'send_transaction', { from: address, to, amount })).hash;
    },
  };
}
