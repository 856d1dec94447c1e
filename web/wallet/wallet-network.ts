/**
 * The node's network as src/wallet needs it (name, chain id, address prefix) and the consensus parameters the tab's
 * light node verifies with (web/light/node-params.ts), from the public get_info.
 */
import type { NetworkParams } from '../../src/consensus/params.ts';
import type { WalletNetwork } from '../../src/wallet/wallet.ts';
import { getInfo } from '../lib/actions/get-info.ts';
import { networkParamsOf } from '../light/node-params.ts';
import type { NodeClient } from '../lib/node-client.ts';

export async function nodeNetwork(link: NodeClient): Promise<WalletNetwork & { readonly params: NetworkParams }> {
  const info = await getInfo(link);
  return { name: info.network_id, chainId: info.chain_id, hrp: info.address_prefix, params: networkParamsOf(info) };
}
