/**
 * The mining-control port the RPC methods (start_mining, stop_mining, get_mining_info, get_mining_stats) and the
 * subscription hub (mining_events) talk to. The node implements it in server/mining/mining-control.ts with the Wasm
 * pool and, when asked and an adapter exists, the WebGPU backend. Result shapes are documented in docs/mining.md.
 */
export type MiningPeriod = '1h' | '24h' | '7d' | '30d';

export interface StartMiningRequest {
  /** bech32m address for rewards; the node's own miner key when absent. */
  readonly minerAddress?: string;
  readonly threads: number;
  readonly gpuMining: boolean;
  readonly gpuDevices: readonly number[];
}

/** How a hash-rate figure was obtained: counted by this node's miners, or estimated from difficulty and block times. */
export type HashRateSource = 'measured' | 'estimated';

export interface HashRate {
  readonly hashesPerSecond: number;
  readonly source: HashRateSource;
}

export type MiningEvent =
  | { readonly type: 'block_found'; readonly block_hash: string; readonly height: number; readonly gpu_mining: boolean }
  | { readonly type: 'difficulty_adjustment'; readonly new_difficulty: number; readonly old_difficulty: number; readonly block_hash: string }
  | { readonly type: 'mining_reward'; readonly reward_amount: number; readonly block_hash: string; readonly miner: string };

export interface MiningControl {
  /** Starts (or reconfigures) mining; throws MiningError (-40005) with the reason when it cannot. */
  start(request: StartMiningRequest): Promise<Record<string, unknown>>;
  stop(): Promise<Record<string, unknown>>;
  /** The get_mining_info result. */
  info(): Record<string, unknown>;
  /** The get_mining_stats result for a period. */
  stats(period: MiningPeriod): Record<string, unknown>;
  /** This node's miners' measured rate, and the network's estimated rate. */
  localHashRate(): HashRate;
  networkHashRate(): HashRate;
  onEvent(listener: (event: MiningEvent) => void): () => void;
}
