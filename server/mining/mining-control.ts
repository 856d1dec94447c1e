/**
 * The node's MiningControl (src/mining/control.ts), behind start_mining / stop_mining / get_mining_info /
 * get_mining_stats and the mining_events topic. It runs the miner loop (src/mining/miner.ts) on the Wasm worker
 * pool with `threads` threads and, when asked for GPU mining, one more loop per WebGPU adapter; blocks carry the
 * gpu_mining flag of the backend that found them. A GPU request that cannot be met fails with MiningError
 * (-40005) and the reason, and nothing starts: never a CPU fallback presented as GPU.
 *
 * Figures: local hash rates are measured from the backends' hash counters (sampled every second); the network
 * rate is estimated from chain work and timestamps; both are labelled. Statistics fold every committed block
 * (src/mining/mining-stats.ts); events come from chain commits (src/mining/mining-events.ts). docs/mining.md.
 *
 * The state and its operations live in server/mining/control/ (state.ts, one file per group of operations); this
 * file resolves the defaults and wires the port's methods to them.
 */
import type { Block } from '../../src/codec/block.ts';
import type { Chain } from '../../src/chain/chain.ts';
import type { MiningControl, MiningEvent, MiningPeriod, StartMiningRequest } from '../../src/mining/control.ts';
import type { PowBackend } from '../../src/mining/job.ts';
import type { MinerOptions, MinerStats } from '../../src/mining/miner.ts';
import type { MiningRewardReader } from '../../src/mining/mining-events.ts';
import { systemClock, type Clock } from '../../src/util/clock.ts';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { resolveMinerAddress } from '../node/miner-address.ts';
import type { GpuBackendOpener } from './gpu-adapters.ts';
import { openDawnBackends, randomU64, submitToChain } from './control/defaults.ts';
import { openMiningControlState } from './control/open.ts';
import { localHashRate } from './control/sample.ts';
import { closeMiningControl, invalidateTemplates, startMining, stopMining } from './control/session.ts';
import { serial } from './control/state.ts';
import { aggregateMinerStats, miningInfo, miningStats, networkHashRate } from './control/views.ts';
import { createWasmPowPool } from './wasm-pool.ts';

export interface MiningControlOptions {
  readonly chain: Chain;
  readonly config: Pick<NodeConfig, 'params' | 'datadir' | 'minerAddress'>;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** The node's block intake; default: chain.addBlock, a rule violation logged (a miner bug, not a crash). */
  readonly submitBlock?: (block: Block) => Promise<unknown>;
  /** Template builder with the node's transaction selection and state root; default: the chain alone. */
  readonly buildTemplate?: MinerOptions['buildTemplate'];
  /** The CPU backend for `threads` threads; default: the Wasm worker pool. */
  readonly openCpuBackend?: (threads: number) => Promise<PowBackend>;
  /** GPU backends for `gpu_devices`; default: Dawn (server/mining/gpu-adapters.ts). */
  readonly openGpuBackends?: GpuBackendOpener;
  /** Reward figures for mining_reward and the statistics; without one they are reported unavailable. */
  readonly rewards?: MiningRewardReader;
  /**
   * Where rewards go when start_mining names no miner_address: the node's --miner-address, else its wallet's first
   * address (server/node/miner-address.ts). Called once, when first needed. Default: resolveMinerAddress (miner.key).
   */
  readonly rewardAddress?: () => { readonly bytes: Uint8Array; readonly text: string };
  readonly randomNonce?: () => bigint;
}

export interface NodeMiningControl extends MiningControl {
  /** The mempool (or anything else a template is built from) changed: miners drop their current template. */
  notifyTemplateInputsChanged(): void;
  /** Aggregate loop counters for /health; undefined while not mining. */
  minerStats(): MinerStats | undefined;
  isRunning(): boolean;
  /** Stops mining and detaches from the chain. */
  close(): Promise<void>;
}

export function createMiningControl(options: MiningControlOptions): NodeMiningControl {
  const { chain, logger, config } = options;
  const state = openMiningControlState({
    chain, logger, params: config.params, configuredMinerAddress: config.minerAddress,
    clock: options.clock ?? systemClock,
    submitToChain: options.submitBlock ?? ((block) => submitToChain(chain, logger, block)),
    buildTemplate: options.buildTemplate,
    openCpuBackend: options.openCpuBackend ?? ((threads) => createWasmPowPool({ threads })),
    openGpuBackends: options.openGpuBackends ?? openDawnBackends,
    rewards: options.rewards,
    rewardAddress: options.rewardAddress ?? (() => resolveMinerAddress(config as NodeConfig)),
    randomNonce: options.randomNonce ?? randomU64,
  });
  return {
    start: (request: StartMiningRequest) => serial(state, () => startMining(state, request)),
    stop: () => serial(state, () => stopMining(state)),
    info: () => miningInfo(state),
    stats: (period: MiningPeriod) => miningStats(state, period),
    localHashRate: () => localHashRate(state),
    networkHashRate: () => networkHashRate(state),
    onEvent: (listener: (event: MiningEvent) => void) => state.events.onEvent(listener),
    notifyTemplateInputsChanged: () => invalidateTemplates(state),
    minerStats: () => aggregateMinerStats(state),
    isRunning: () => state.session !== null,
    close: () => serial(state, () => closeMiningControl(state)),
  };
}
