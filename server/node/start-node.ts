/**
 * The composition root of a full node: opens the LMDB store, replays (or joins) the chain, starts the pool, mining,
 * p2p and the API servers. Returns a handle whose close() stops everything in order and leaves the store consistent.
 *
 * Each stage is a free function over the parts before it (server/node/start/: open-chain.ts, services.ts, p2p.ts,
 * api.ts, a2a.ts; the instance's state in node-state.ts, its close in close-node.ts). A joined node whose join guard
 * finds the joined chain wrong stops, wipes its chain store and joins again by proof on its own (rejoin.ts); the
 * handle stays valid across such re-joins.
 */
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { startRejoiningNode, type JoinHooks } from './rejoin.ts';
import type { RunningNode, RpcServicePorts } from './running-node.ts';
import { startNodeApi } from './start/api.ts';
import { closeNode } from './start/close-node.ts';
import type { LateParts, NodeInstance } from './start/node-state.ts';
import { openNodeChain } from './start/open-chain.ts';
import { startNodeP2p } from './start/p2p.ts';
import { startNodeServices } from './start/services.ts';

export type { RunningNode, RpcServicePorts } from './running-node.ts';

export async function startNode(config: NodeConfig, logger: Logger, ports: RpcServicePorts = {}): Promise<RunningNode> {
  return startRejoiningNode(config, logger, (instanceConfig, hooks) => startNodeInstance(instanceConfig, logger, ports, hooks));
}

/** One instance: the chain, then the pool and mining, then p2p, then the API over all of them. */
async function startNodeInstance(config: NodeConfig, logger: Logger, ports: RpcServicePorts, hooks: JoinHooks): Promise<RunningNode> {
  const chainParts = await openNodeChain(config, logger, hooks);
  const parts = { ...chainParts, ...(await startNodeServices(chainParts)) };
  const late: LateParts = { alerts: undefined, p2p: undefined, a2a: undefined, a2aWs: undefined };
  const p2p = await startNodeP2p(parts, late, hooks);
  const apiParts = await startNodeApi(parts, p2p, late, ports);
  const node: NodeInstance = { ...parts, ...apiParts, p2p, late, closing: undefined };
  const { chain, ledger, mining, api, access, apiCookiePath, alerts } = node;
  return { chain, ledger, mining, httpPort: api.httpPort, api, p2p, access, apiCookiePath, alerts, close: () => closeNode(node) };
}
