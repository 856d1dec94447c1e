/**
 * The node's network as src/wallet needs it (name, chain id, address prefix) and the consensus parameters the tab's
 * light node verifies with (web/light/node-params.ts). What is signed with comes from the tab, not from the node's
 * word (docs/web.md "Threat model"): the network is the one the page's own origin serves (its /web-config.json, the
 * same origin as the page's scripts), the chain id and address prefix are that network's built-in parameters, and
 * `get_info` only has to agree. A node whose get_info names another network, chain id or prefix is refused before
 * any key is opened, so nothing is signed for a chain the tab did not choose.
 */
import { WeftError } from '../../src/errors.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import type { WalletNetwork } from '../../src/wallet/wallet.ts';
import { getInfo, type GetInfoReturnType } from '../../packages/client/src/index.ts';
import { networkParamsOf } from '../light/node-params.ts';
import type { RpcClient } from '../lib/node-client.ts';

export type VerifiedNetwork = WalletNetwork & { readonly params: NetworkParams };

/** The node's get_info disagrees with the network parameters the tab verifies and signs with. */
export class NodeNetworkMismatchError extends WeftError {
  constructor(readonly field: 'network' | 'chain id' | 'address prefix', got: string, expected: string) {
    super('light_verification', `refused the node: its get_info says ${field} ${got}, but this page's network has ${field} ${expected}; nothing will be signed through it`);
  }
}

/**
 * The network the tab signs for, from `expectedNetwork` (the page origin's network; get_info's when the origin did
 * not say) and its built-in parameters; throws NodeNetworkMismatchError when `info` disagrees with them.
 */
export function verifiedNetworkOf(info: Pick<GetInfoReturnType, 'network_id' | 'chain_id' | 'address_prefix'> & Partial<Pick<GetInfoReturnType, 'consensus'>>, expectedNetwork: string | undefined): VerifiedNetwork {
  const name = expectedNetwork ?? info.network_id;
  if (info.network_id !== name) throw new NodeNetworkMismatchError('network', JSON.stringify(info.network_id), JSON.stringify(name));
  const params = networkParamsOf({ ...info, network_id: name });
  if (info.chain_id !== params.chainId) throw new NodeNetworkMismatchError('chain id', String(info.chain_id), String(params.chainId));
  if (info.address_prefix !== params.hrp) throw new NodeNetworkMismatchError('address prefix', JSON.stringify(info.address_prefix), JSON.stringify(params.hrp));
  return { name, chainId: params.chainId, hrp: params.hrp, params };
}

/** get_info, checked against the verified parameters of `expectedNetwork` (see verifiedNetworkOf). */
export async function nodeNetwork(link: RpcClient, expectedNetwork: string | undefined): Promise<VerifiedNetwork> {
  return verifiedNetworkOf(await getInfo(link), expectedNetwork);
}
