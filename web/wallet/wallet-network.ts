/** The node's network as src/wallet needs it (name, chain id, address prefix), from the public get_info. */
import type { WalletNetwork } from '../../src/wallet/wallet.ts';
import { getInfo } from '../lib/actions/get-info.ts';
import type { NodeClient } from '../lib/node-client.ts';

export async function nodeNetwork(link: NodeClient): Promise<WalletNetwork> {
  const info = await getInfo(link);
  return { name: info.network_id, chainId: info.chain_id, hrp: info.address_prefix };
}
