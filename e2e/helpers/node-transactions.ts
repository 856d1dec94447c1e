// Transactions on a regtest node from the test process: an address of the node's own wallet (create_address, admin
// key), funded by blocks mined to it from here (mineOneBlock), and transfers signed by the node (send_transaction),
// so explorer tests have confirmed and pending transactions to show.
import { nodeRpc } from './node-rpc.ts';
import { mineOneBlock } from './submit-block.ts';

export interface NodeWallet {
  readonly address: string;
  /** A transfer signed by the node's wallet, left in the mempool until the next block; its hash. */
  send(to: string, amount: number): Promise<string>;
  /** Mines one block (to the wallet's address), which confirms what is pending; its hash. */
  mine(): Promise<string>;
}

export async function fundedNodeWallet(url: string, apiKey: string, blocks = 2): Promise<NodeWallet> {
  const { address } = await nodeRpc<{ address: string }>(url, 'create_address', {}, apiKey);
  const mine = () => mineOneBlock(url, apiKey, address);
  for (let i = 0; i < blocks; i++) await mine();
  return {
    address,
    mine,
    async send(to, amount) {
      return (await nodeRpc<{ hash: string }>(url, 'send_transaction', { from: address, to, amount }, apiKey)).hash;
    },
  };
}
