/**
 * What a started full node hands its caller (server/node/start-node.ts): the chain, the ledger, the servers and a
 * close() that stops everything in order. A node that re-joins (rejoin.ts) keeps handing out the same handle; its
 * fields then read the running instance.
 */
import type { Chain } from '../../src/chain/chain.ts';
import type { RpcServices } from '../../src/rpc/ports.ts';
import type { Ledger } from '../../src/state/ledger.ts';
import type { NodeAlerts } from '../alerts/start-alerts.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { ApiServers } from '../http/start-api.ts';
import type { NodeMiningControl } from '../mining/mining-control.ts';
import type { RunningP2p } from '../p2p/start-p2p.ts';

export interface RunningNode {
  readonly chain: Chain;
  /** Accounts, acceptance, supply and the transaction index (src/state/ledger.ts, docs/state.md). */
  readonly ledger: Ledger;
  /** start/stop_mining, get_mining_info/stats, mining_events (server/mining/mining-control.ts, docs/mining.md). */
  readonly mining: NodeMiningControl;
  readonly httpPort: number;
  /** JSON-RPC/REST/WebSocket/gRPC servers (server/http/start-api.ts): ports, dispatcher, hub, `ws.registerUpgradeHandler`. */
  readonly api: ApiServers;
  /** TCP p2p, the /p2p browser bridge, sync status and peers (server/p2p/start-p2p.ts, docs/p2p.md). */
  readonly p2p: RunningP2p;
  /** API keys, OAuth clients and tokens, rate limiter (server/auth/access-control.ts, docs/auth.md). */
  readonly access: AccessControl;
  /** `<datadir>/api.cookie`: the admin API key (mode 0600). */
  readonly apiCookiePath: string;
  /** Alert subscriptions at /alerts and the monitor that raises them (server/alerts/start-alerts.ts, docs/alerts.md). */
  readonly alerts: NodeAlerts;
  close(): Promise<void>;
}

/** Ports the RPC layer reads that this root does not build yet (src/rpc/ports.ts); tests hand in real in-memory ones. */
export type RpcServicePorts = Partial<Pick<RpcServices, 'ledger' | 'mempool' | 'wallet' | 'privacy' | 'peers' | 'templates'>>;
