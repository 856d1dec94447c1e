/**
 * The state of one running instance of the full node (server/node/start-node.ts), built in stages — the chain
 * (open-chain.ts), the pool and mining (services.ts), p2p (p2p.ts), the API and what it mounts (api.ts) — each a
 * free function over the parts before it; close-node.ts stops them in order.
 */
import type { Chain } from '../../../src/chain/chain.ts';
import type { Ledger } from '../../../src/state/ledger.ts';
import type { NodeAlerts } from '../../alerts/start-alerts.ts';
import type { A2aService } from '../../a2a/service.ts';
import type { AccessControl } from '../../auth/access-control.ts';
import type { NodeConfig } from '../../config.ts';
import type { NodeBlockVerifiers } from '../../crypto/node-verifier.ts';
import type { ApiServers } from '../../http/start-api.ts';
import type { Logger } from '../../logger.ts';
import type { NodeMiningControl } from '../../mining/mining-control.ts';
import type { RunningP2p } from '../../p2p/start-p2p.ts';
import type { LmdbStore } from '../../storage/lmdb-store.ts';
import type { createPrivacyPort } from '../../wallet/privacy-port.ts';
import type { WalletService } from '../../wallet/wallet-service.ts';
import type { FastJoinResult } from '../fast-join.ts';
import type { NodeMempool } from '../mempool-service.ts';
import type { Miner } from '../../../src/mining/miner.ts';
import type { BlockTemplate } from '../../../src/mining/template.ts';
import type { PipelineEvents } from './pipeline-events.ts';

/** The store and the chain opened on it (open-chain.ts). */
export interface ChainParts {
  readonly config: NodeConfig;
  readonly logger: Logger;
  readonly startedAt: number;
  readonly store: LmdbStore;
  /** What the join took, when this start joined by proof (fast-join.ts). */
  readonly joined: FastJoinResult | undefined;
  readonly blockVerifiers: NodeBlockVerifiers;
  readonly pipeline: PipelineEvents;
  readonly chain: Chain;
  readonly ledger: Ledger;
}

/** Block template inputs: the miner address and GPU flag from the caller, the time from the node's clock. */
export interface TemplateRequest {
  readonly miner: Uint8Array;
  readonly gpuMining: boolean;
  readonly nowMs: number;
}

/** The pool, the wallets and mining (services.ts). */
export interface ServiceParts {
  readonly mempool: NodeMempool;
  readonly wallets: WalletService;
  readonly mining: NodeMiningControl;
  /** /health reads loop counters through the Miner shape. */
  readonly miner: Miner;
  readonly buildTemplate: (request: TemplateRequest) => BlockTemplate;
}

/** What exists only once a later stage ran: read late by callbacks wired earlier (p2p's misbehaviour, the guard). */
export interface LateParts {
  alerts: NodeAlerts | undefined;
  p2p: RunningP2p | undefined;
  a2a: A2aService | undefined;
  a2aWs: { close(): void } | undefined;
}

/** The API and what hangs off it (api.ts). */
export interface ApiParts {
  readonly privacy: ReturnType<typeof createPrivacyPort>;
  readonly access: AccessControl;
  readonly apiCookiePath: string;
  readonly api: ApiServers;
  readonly alerts: NodeAlerts;
  readonly pruneTokens: ReturnType<typeof setInterval>;
  readonly releaseBridge: () => void;
}

/** One running instance: every part, and its close() once asked. */
export interface NodeInstance extends ChainParts, ServiceParts, ApiParts {
  readonly p2p: RunningP2p;
  readonly late: LateParts;
  closing: Promise<void> | undefined;
}
