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
 */
import type { Block } from '../../src/codec/block.ts';
import type { Chain } from '../../src/chain/chain.ts';
import { BlockRuleError } from '../../src/chain/errors.ts';
import { blockHash, compactToTarget, difficultyFromTarget } from '../../src/consensus/pow.ts';
import { decodeAddress, encodeAddress } from '../../src/crypto/address.ts';
import type { HashRate, MiningControl, MiningEvent, MiningPeriod, StartMiningRequest } from '../../src/mining/control.ts';
import { MiningError } from '../../src/mining/errors.ts';
import { createHashRateMeter, estimateNetworkHashRate, formatHashRate, hashRateView, type HashRateMeter } from '../../src/mining/hash-rate.ts';
import type { PowBackend } from '../../src/mining/job.ts';
import { createMiner, type Miner, type MinerOptions, type MinerStats } from '../../src/mining/miner.ts';
import { createMiningEvents, type MiningRewardReader } from '../../src/mining/mining-events.ts';
import { hashRateSampleIntervalMs, hashRateWindowMs } from '../../src/mining/mining-limits.ts';
import { backfillBlockStats, createBlockStatsIndex } from '../../src/mining/mining-stats.ts';
import { systemClock, type Clock } from '../../src/util/clock.ts';
import { toHash0x, toHex } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { resolveMinerAddress } from '../node/miner-address.ts';
import type { GpuBackendOpener } from './gpu-adapters.ts';
import { createWasmPowPool, wasmPoolThreadsMax } from './wasm-pool.ts';

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

interface Engine {
  readonly kind: 'cpu' | 'gpu';
  readonly backend: PowBackend;
  readonly miner: Miner;
  readonly meter: HashRateMeter;
  readonly deviceIndex?: number;
  readonly adapter?: string;
  lastTotal: number;
  close(): Promise<void>;
}

interface Session {
  readonly address: { bytes: Uint8Array; text: string };
  readonly threads: number;
  readonly gpuMining: boolean;
  readonly gpuDevices: readonly number[];
  readonly engines: readonly Engine[];
  readonly startedAtMs: number;
}

/** Dawn (dawn.node) is loaded only when GPU mining is asked for: a CPU-only node never initialises Vulkan. */
async function loadDawnOpener(): Promise<GpuBackendOpener> {
  return (await import('./gpu-adapters.ts')).openNodeGpuBackends;
}

function randomU64(): bigint {
  return new DataView(crypto.getRandomValues(new Uint8Array(8)).buffer).getBigUint64(0);
}

function checkRequest(request: StartMiningRequest): void {
  const { threads, gpuMining, gpuDevices } = request;
  if (!Number.isInteger(threads) || threads < 0 || threads > wasmPoolThreadsMax) {
    throw new MiningError(`threads: expected an integer in 0..${wasmPoolThreadsMax}, got ${String(threads)}`);
  }
  if (threads === 0 && !gpuMining) throw new MiningError('nothing to mine with: threads is 0 and gpu_mining is false');
  if (!gpuMining && gpuDevices.length > 0) throw new MiningError('gpu_devices given but gpu_mining is false');
}

export function createMiningControl(options: MiningControlOptions): NodeMiningControl {
  const { chain, logger } = options;
  const clock = options.clock ?? systemClock;
  const params = options.config.params;
  const createdAtMs = clock.nowMs();
  const statsIndex = createBlockStatsIndex({ maxTarget: params.maxTarget });
  const backfilled = backfillBlockStats(chain, statsIndex, createdAtMs);
  const ownMiners = new Map<string, string>();
  if (options.config.minerAddress !== undefined) {
    ownMiners.set(toHex(decodeAddress(options.config.minerAddress, params.hrp)), options.config.minerAddress);
  }
  const events = createMiningEvents({
    chain,
    ...(options.rewards === undefined ? {} : { rewards: options.rewards }),
    onReward: (block, units) => statsIndex.addReward(block.header.timestampMs, units),
    onListenerError: (error) => logger.error({ err: error }, 'mining event listener failed'),
  });
  const unsubscribe = chain.onBlockAccepted((event) => {
    statsIndex.addBlock(event.block, clock.nowMs());
    events.handleAccepted(event);
  });
  logger.debug({ blocks: backfilled }, 'mining statistics loaded');

  let reward: { bytes: Uint8Array; text: string } | undefined;
  const rewardAddress = (): { bytes: Uint8Array; text: string } =>
    (reward ??= options.rewardAddress ? options.rewardAddress() : resolveMinerAddress(options.config as NodeConfig));
  /** For get_mining_info: the address, or null when it cannot be had (a locked wallet): a read never fails for it. */
  const rewardText = (): string | null => {
    try {
      return rewardAddress().text;
    } catch (error) {
      logger.warn({ err: error }, 'reward address unavailable');
      return null;
    }
  };

  let session: Session | null = null;
  let lastSession: Omit<Session, 'engines' | 'startedAtMs'> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };

  const submitToChain = options.submitBlock ?? (async (block: Block) => {
    try {
      return await chain.addBlock(block);
    } catch (error) {
      if (!(error instanceof BlockRuleError)) throw error;
      logger.warn({ rule: error.rule, err: error.message }, 'mined block rejected');
      return undefined;
    }
  });
  const submit = async (block: Block): Promise<unknown> => {
    events.noteFound(toHash0x(blockHash(block.header)));
    return submitToChain(block);
  };

  /** Reads every engine's hash counter: feeds the meters and the statistics' measured hashes. */
  const sample = (): void => {
    if (session === null) return;
    const now = clock.nowMs();
    for (const engine of session.engines) {
      const pool = engine.backend as Partial<{ hashesDone(): number }>;
      const total = typeof pool.hashesDone === 'function' ? pool.hashesDone() : engine.miner.stats().hashes;
      engine.meter.observe(now, total);
      statsIndex.addLocalHashes(now, total - engine.lastTotal, engine.kind === 'gpu');
      engine.lastTotal = total;
    }
  };
  const sampler = setInterval(sample, hashRateSampleIntervalMs);
  sampler.unref();

  const makeEngine = (kind: 'cpu' | 'gpu', backend: PowBackend, address: Uint8Array, close: () => Promise<void>, gpu?: { index: number; adapter: string }): Engine => {
    const miner = createMiner({
      chain, backend, clock, miner: address, submit,
      randomNonce: options.randomNonce ?? randomU64,
      ...(options.buildTemplate === undefined ? {} : { buildTemplate: options.buildTemplate }),
      onError: (error) => logger.error({ err: error, backend: backend.name }, 'miner error'),
    });
    const engine: Engine = { kind, backend, miner, meter: createHashRateMeter(), lastTotal: 0, close, ...(gpu ? { deviceIndex: gpu.index, adapter: gpu.adapter } : {}) };
    engine.meter.observe(clock.nowMs(), 0);
    return engine;
  };

  const openEngines = async (request: StartMiningRequest, address: Uint8Array): Promise<Engine[]> => {
    const engines: Engine[] = [];
    try {
      if (request.gpuMining) {
        const opened = await (options.openGpuBackends ?? (await loadDawnOpener()))(request.gpuDevices);
        for (const g of opened) engines.push(makeEngine('gpu', g.backend, address, g.close, { index: g.index, adapter: g.adapter }));
      }
      if (request.threads > 0) {
        const cpu = await (options.openCpuBackend ?? ((threads) => createWasmPowPool({ threads })))(request.threads);
        engines.push(makeEngine('cpu', cpu, address, () => cpu.close()));
      }
    } catch (error) {
      await Promise.all(engines.map((e) => e.close()));
      throw error instanceof MiningError ? error : new MiningError(`mining backend failed to start: ${String(error)}`, { cause: error });
    }
    return engines;
  };

  const stopSession = async (): Promise<Session | null> => {
    const ended = session;
    if (ended === null) return null;
    await Promise.all(ended.engines.map((e) => e.miner.stop()));
    sample();
    session = null;
    await Promise.all(ended.engines.map((e) => e.close()));
    logger.info({ blocks: ended.engines.reduce((n, e) => n + e.miner.stats().blocksFound, 0) }, 'mining stopped');
    return ended;
  };

  const localHashRate = (): HashRate => {
    sample();
    const hps = (session?.engines ?? []).reduce((sum, e) => sum + e.meter.rate().hashesPerSecond, 0);
    return { hashesPerSecond: hps, source: 'measured' };
  };

  const engineView = (e: Engine): Record<string, unknown> => ({
    name: e.backend.name,
    kind: e.kind,
    ...(e.kind === 'gpu' ? { device_index: e.deviceIndex, adapter: e.adapter } : { threads: (session?.threads ?? 0) }),
    hashes: e.lastTotal,
    blocks_submitted: e.miner.stats().blocksFound,
    hash_rate: hashRateView(e.meter.rate(), hashRateWindowMs),
  });

  const info = (): Record<string, unknown> => {
    const local = localHashRate();
    const network = estimateNetworkHashRate(chain);
    const now = clock.nowMs();
    const built = (session?.engines ?? []).map((e) => e.miner.stats().templateBuiltAtMs).filter((t): t is number => t !== null);
    const found = events.committedFound();
    const shown = session ?? lastSession;
    return {
      running: session !== null,
      miner_address: shown?.address.text ?? null,
      // Where --mine / start_mining without miner_address pay: the node's wallet's first address (docs/mining.md).
      reward_address: rewardText(),
      threads: session?.threads ?? 0,
      gpu_mining: session?.gpuMining ?? false,
      gpu_devices: session?.gpuDevices ?? [],
      backends: (session?.engines ?? []).map(engineView),
      hash_rate: formatHashRate(local.hashesPerSecond),
      local_hash_rate: hashRateView(local, hashRateWindowMs),
      network_hash_rate: hashRateView(network, network.windowMs),
      difficulty: difficultyFromTarget(compactToTarget(chain.childRules(chain.selectedTip()).bits), params.maxTarget),
      height: chain.selectedTip().height,
      blocks_found: { total: found.total, gpu: found.gpu, cpu: found.total - found.gpu },
      template_age_ms: built.length === 0 ? null : now - Math.max(...built),
      started_at: session === null ? null : Math.floor(session.startedAtMs / 1000),
    };
  };

  const start = (request: StartMiningRequest): Promise<Record<string, unknown>> => serial(async () => {
    checkRequest(request);
    const address = request.minerAddress === undefined
      ? rewardAddress()
      : { bytes: decodeAddress(request.minerAddress, params.hrp), text: request.minerAddress };
    await stopSession();
    const engines = await openEngines(request, address.bytes);
    ownMiners.set(toHex(address.bytes), encodeAddress(params.hrp, address.bytes));
    session = { address, threads: request.threads, gpuMining: request.gpuMining, gpuDevices: [...request.gpuDevices], engines, startedAtMs: clock.nowMs() };
    lastSession = session;
    for (const e of engines) e.miner.start();
    logger.info(
      { address: address.text, threads: request.threads, backends: engines.map((e) => (e.kind === 'gpu' ? `${e.backend.name}#${e.deviceIndex} ${e.adapter}` : `${e.backend.name}×${request.threads}`)) },
      'mining started',
    );
    return info();
  });

  return {
    start,
    stop: () => serial(async () => {
      const ended = await stopSession();
      return { stopped: ended !== null, ...info() };
    }),
    info,
    stats: (period: MiningPeriod) => {
      sample();
      return statsIndex.summarize(period, {
        chain, nowMs: clock.nowMs(), ownMiners, measuringSinceMs: createdAtMs, rewardSource: options.rewards?.source ?? 'unavailable',
      });
    },
    localHashRate,
    networkHashRate: () => {
      const { hashesPerSecond, source } = estimateNetworkHashRate(chain);
      return { hashesPerSecond, source };
    },
    onEvent: (listener: (event: MiningEvent) => void) => events.onEvent(listener),
    notifyTemplateInputsChanged() {
      for (const e of session?.engines ?? []) e.miner.invalidate();
    },
    minerStats() {
      if (session === null) return undefined;
      const all = session.engines.map((e) => e.miner.stats());
      const built = all.map((s) => s.templateBuiltAtMs).filter((t): t is number => t !== null);
      return {
        running: all.some((s) => s.running),
        backend: all.map((s) => s.backend).join('+'),
        gpu: all.some((s) => s.gpu),
        hashes: session.engines.reduce((n, e) => n + e.lastTotal, 0),
        blocksFound: all.reduce((n, s) => n + s.blocksFound, 0),
        startedAtMs: session.startedAtMs,
        templateBuiltAtMs: built.length === 0 ? null : Math.max(...built),
        templatesBuilt: all.reduce((n, s) => n + s.templatesBuilt, 0),
        templatesDropped: all.reduce((n, s) => n + s.templatesDropped, 0),
      };
    },
    isRunning: () => session !== null,
    close: () => serial(async () => {
      clearInterval(sampler);
      unsubscribe();
      await stopSession();
    }),
  };
}
