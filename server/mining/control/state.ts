/**
 * The state of the node's mining control (server/mining/mining-control.ts): the dependencies it was wired with, the
 * block statistics and events it keeps for the whole life of the node, and the mining session now running. The
 * operations are free functions over it, one file per group (open.ts, session.ts, engines.ts, sample.ts, views.ts); docs/mining.md.
 */
import type { Block } from '../../../src/codec/block.ts';
import type { Chain } from '../../../src/chain/chain.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import type { HashRateMeter } from '../../../src/mining/hash-rate.ts';
import type { PowBackend } from '../../../src/mining/job.ts';
import type { Miner, MinerOptions } from '../../../src/mining/miner.ts';
import type { MiningEvents, MiningRewardReader } from '../../../src/mining/mining-events.ts';
import type { BlockStatsIndex } from '../../../src/mining/mining-stats.ts';
import type { Clock } from '../../../src/util/clock.ts';
import type { Logger } from '../../logger.ts';
import type { GpuBackendOpener } from '../gpu-adapters.ts';

export interface RewardAddress {
  readonly bytes: Uint8Array;
  readonly text: string;
}

/** One mining loop and the backend it grinds on: the Wasm pool, or one GPU adapter. */
export interface Engine {
  readonly kind: 'cpu' | 'gpu';
  readonly backend: PowBackend;
  readonly miner: Miner;
  readonly meter: HashRateMeter;
  readonly deviceIndex?: number;
  readonly adapter?: string;
  /** The backend's hash counter at the last sample. */
  lastTotal: number;
  close(): Promise<void>;
}

/** What start_mining asked for; kept after stop so get_mining_info still names the last miner address. */
interface SessionSettings {
  readonly address: RewardAddress;
  readonly threads: number;
  readonly gpuMining: boolean;
  readonly gpuDevices: readonly number[];
}

export interface Session extends SessionSettings {
  readonly engines: readonly Engine[];
  readonly startedAtMs: number;
}

/** The mining control's dependencies, every default already resolved (mining-control.ts does that). */
export interface MiningControlDeps {
  readonly chain: Chain;
  readonly params: NetworkParams;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The node's --miner-address, counted among its own miners from the start. */
  readonly configuredMinerAddress: string | undefined;
  readonly submitToChain: (block: Block) => Promise<unknown>;
  readonly buildTemplate: MinerOptions['buildTemplate'];
  readonly openCpuBackend: (threads: number) => Promise<PowBackend>;
  readonly openGpuBackends: GpuBackendOpener;
  readonly rewards: MiningRewardReader | undefined;
  /** Where rewards go when start_mining names no miner_address; called once, when first needed. */
  readonly rewardAddress: () => RewardAddress;
  readonly randomNonce: () => bigint;
}

export interface MiningControlState extends MiningControlDeps {
  readonly createdAtMs: number;
  readonly statsIndex: BlockStatsIndex;
  /** Hex of the binary address → its text: the addresses this node mined to, for the statistics. */
  readonly ownMiners: Map<string, string>;
  readonly events: MiningEvents;
  /** Detaches from the chain's block-accepted events. */
  readonly unsubscribe: () => void;
  readonly sampler: ReturnType<typeof setInterval>;
  reward: RewardAddress | undefined;
  session: Session | null;
  lastSession: SessionSettings | null;
  /** The tail of the start/stop/close queue: they run one at a time in call order. */
  queue: Promise<unknown>;
}

/** Runs `work` after every earlier queued operation has settled (start, stop and close never interleave). */
export function serial<T>(state: MiningControlState, work: () => Promise<T>): Promise<T> {
  const run = state.queue.then(work);
  state.queue = run.catch(() => undefined);
  return run;
}
