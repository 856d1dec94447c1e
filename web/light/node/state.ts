/**
 * The state of the tab's light node (web/light/light-node.ts): its chain, the session it runs now, what it shows,
 * and who listens. The operations are free functions: its status and emit here, connecting in connect.ts.
 */
import type { NetworkParams } from '../../../src/consensus/params.ts';
import type { LightChain } from '../../../src/light/light-chain.ts';
import type { LightSync, LightSyncProgress } from '../../../src/light/light-sync.ts';
import type { KeyPair } from '../../../src/p2p/noise/suites.ts';
import { toHash0x } from '../../../src/util/bytes.ts';
import type { LightNodeState, LightNodeStatus } from './types.ts';

export interface LightNodeRuntime {
  readonly params: NetworkParams;
  readonly p2pUrl: string;
  readonly fromGenesis: boolean | undefined;
  readonly chain: LightChain;
  readonly staticKey: KeyPair;
  readonly hashBackend: string;
  readonly storage: LightNodeStatus['storage'];
  readonly listeners: Set<(status: LightNodeStatus) => void>;
  /** performance.now() at start, and when the first round caught up (the status line's sync time). */
  readonly began: number;
  syncEnded: number | undefined;
  state: LightNodeState;
  error: LightNodeStatus['error'];
  progress: LightSyncProgress | undefined;
  session: LightSync | undefined;
  stopped: boolean;
  /** Resolves `syncedOnce`. */
  readonly wake: () => void;
  readonly syncedOnce: Promise<void>;
}

export type LightNodeSetup = Pick<LightNodeRuntime, 'params' | 'p2pUrl' | 'fromGenesis' | 'chain' | 'staticKey' | 'hashBackend' | 'storage'>;

export function createLightNodeRuntime(setup: LightNodeSetup): LightNodeRuntime {
  let wake!: () => void;
  const syncedOnce = new Promise<void>((resolve) => (wake = resolve));
  return {
    ...setup, listeners: new Set(), began: performance.now(), syncEnded: undefined, state: 'starting', error: null,
    progress: undefined, session: undefined, stopped: false, wake, syncedOnce,
  };
}

export function nodeStatus(node: LightNodeRuntime): LightNodeStatus {
  const { chain } = node;
  const tip = chain.selectedTip();
  const joined = chain.joinedAt();
  return {
    state: node.state, network: node.params.name, verified: node.progress?.verified ?? 0, resumed: chain.resumedCount, headers: chain.count(),
    tipHeight: tip.height, tipHash: toHash0x(tip.hash), hashBackend: node.hashBackend, storage: node.storage, error: node.error,
    joinedAt: joined ? toHash0x(joined.hash) : null,
    syncSeconds: ((node.syncEnded ?? performance.now()) - node.began) / 1000,
  };
}

export function emitStatus(node: LightNodeRuntime): void {
  const s = nodeStatus(node);
  for (const listener of node.listeners) listener(s);
}
