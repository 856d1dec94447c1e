/** The read side of the mining control: get_mining_info, get_mining_stats, the network rate and /health's counters. */
import { compactToTarget, difficultyFromTarget } from '../../../src/consensus/pow.ts';
import type { HashRate, MiningPeriod } from '../../../src/mining/control.ts';
import { formatHashRate, hashRateView } from '../../../src/mining/hash-rate.ts';
import { estimateNetworkHashRate } from '../../../src/mining/network-hash-rate.ts';
import type { MinerStats } from '../../../src/mining/miner.ts';
import { hashRateWindowMs } from '../../../src/mining/mining-limits.ts';
import { rewardText } from './reward-address.ts';
import { localHashRate, sampleEngines } from './sample.ts';
import type { Engine, MiningControlState } from './state.ts';

function engineView(state: MiningControlState, e: Engine): Record<string, unknown> {
  return {
    name: e.backend.name,
    kind: e.kind,
    ...(e.kind === 'gpu' ? { device_index: e.deviceIndex, adapter: e.adapter } : { threads: (state.session?.threads ?? 0) }),
    hashes: e.lastTotal,
    blocks_submitted: e.miner.stats().blocksFound,
    hash_rate: hashRateView(e.meter.rate(), hashRateWindowMs),
  };
}

/** get_mining_info's result (docs/mining.md). */
export function miningInfo(state: MiningControlState): Record<string, unknown> {
  const { chain, session } = state;
  const local = localHashRate(state);
  const network = estimateNetworkHashRate(chain);
  const now = state.clock.nowMs();
  const built = (session?.engines ?? []).map((e) => e.miner.stats().templateBuiltAtMs).filter((t): t is number => t !== null);
  const found = state.events.committedFound();
  const shown = session ?? state.lastSession;
  return {
    running: session !== null,
    miner_address: shown?.address.text ?? null,
    // Where --mine / start_mining without miner_address pay: the node's wallet's first address (docs/mining.md).
    reward_address: rewardText(state),
    threads: session?.threads ?? 0,
    gpu_mining: session?.gpuMining ?? false,
    gpu_devices: session?.gpuDevices ?? [],
    backends: (session?.engines ?? []).map((e) => engineView(state, e)),
    hash_rate: formatHashRate(local.hashesPerSecond),
    local_hash_rate: hashRateView(local, hashRateWindowMs),
    network_hash_rate: hashRateView(network, network.windowMs),
    difficulty: difficultyFromTarget(compactToTarget(chain.childRules(chain.selectedTip()).bits), state.params.maxTarget),
    height: chain.selectedTip().height,
    blocks_found: { total: found.total, gpu: found.gpu, cpu: found.total - found.gpu },
    template_age_ms: built.length === 0 ? null : now - Math.max(...built),
    started_at: session === null ? null : Math.floor(session.startedAtMs / 1000),
  };
}

/** get_mining_stats for one period, with the hash counters sampled now. */
export function miningStats(state: MiningControlState, period: MiningPeriod): Record<string, unknown> {
  sampleEngines(state);
  return state.statsIndex.summarize(period, {
    chain: state.chain,
    nowMs: state.clock.nowMs(),
    ownMiners: state.ownMiners,
    measuringSinceMs: state.createdAtMs,
    rewardSource: state.rewards?.source ?? 'unavailable',
  });
}

export function networkHashRate(state: MiningControlState): HashRate {
  const { hashesPerSecond, source } = estimateNetworkHashRate(state.chain);
  return { hashesPerSecond, source };
}

/** The engines' loop counters folded into one, for /health; undefined while not mining. */
export function aggregateMinerStats(state: MiningControlState): MinerStats | undefined {
  const { session } = state;
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
}
