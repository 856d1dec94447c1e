/** The node's network as src/wallet needs it (name, chain id, address prefix), from the public get_info. */
import type { WalletNetwork } from '../../src/wallet/wallet.ts';
import type { NodeClient } from '../lib/node-client.ts';

export async function nodeNetwork(link: NodeClient): Promise<WalletNetwork> {
  const info = await link.call<{ network_id: string; chain_id: number; address_prefix: string }>('get_info');
  return { name: info.network_id, chainId: info.chain_id, hrp: info.address_prefix };
}
