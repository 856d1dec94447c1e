/** Chain, pool, peer, cache, hash-rate and WebSocket figures, read at scrape time so they are never stale. */
import { Gauge } from 'prom-client';
import { networkStats } from '../../src/rpc/chain-stats.ts';
import { scrapeGauge, type MetricsState } from './metrics-state.ts';

export function registerChainGauges(state: MetricsState): void {
  const { services } = state;
  const gauge = (name: string, help: string, read: () => number) => scrapeGauge(state, name, help, read);
  gauge('weft_block_height', 'Height of the selected tip', () => services.chain.selectedTip().height);
  gauge('weft_blue_score', 'Blue score of the selected tip', () => services.chain.selectedTip().header.blueScore);
  gauge('weft_dag_blocks', 'Blocks in the DAG', () => services.chain.blockCount());
  gauge('weft_dag_tips', 'Tips of the DAG', () => services.chain.tips().length);
  // docs/storage.md "Pruning": 0 on an archive node.
  gauge('weft_pruning_point_blue_score', 'Blue score of the pruning point (0: archive node, or not moved yet)', () => services.chain.pruning?.()?.pruningPoint.header.blueScore ?? 0);
  gauge('weft_pruning_rounds', 'Pruning rounds finished since start', () => services.chain.pruning?.()?.rounds ?? 0);
  gauge('weft_difficulty', 'Difficulty of the selected tip', () => networkStats(services.chain).difficulty);
  gauge('weft_mempool_size', 'Transactions in the mempool (0 without a mempool)', () => services.mempool?.size() ?? 0);
  gauge('weft_peers', 'Connected peers', () => services.peers?.peers().length ?? 0);
  gauge('weft_ws_connections', 'Open WebSocket connections', () => state.wsSource?.().connections ?? 0);
  registerCacheGauges(state);
  registerActivityGauges(state);
  registerWireGauges(state);
}

/** What the node sent its peers, by message type (src/p2p/wire-tally.ts; docs/network.md "Where a transfer's wire bytes go"). */
function registerWireGauges(state: MetricsState): void {
  const { services, registry } = state;
  const sent = (field: 'messages' | 'bytes') =>
    function (this: Gauge<'message'>) {
      for (const [message, count] of services.peers?.sentByMessage?.() ?? []) this.set({ message }, count[field]);
    };
  new Gauge({ name: 'weft_p2p_sent_messages', help: 'P2P messages sent to peers since start, by type', labelNames: ['message'] as const, registers: [registry], collect: sent('messages') });
  new Gauge({ name: 'weft_p2p_sent_bytes', help: 'P2P payload bytes sent to peers since start, by message type (before Noise framing)', labelNames: ['message'] as const, registers: [registry], collect: sent('bytes') });
}

/** Per-block caches bounded by --cache-mb (docs/storage.md "Caches"): entries, capacity and lookups by outcome. */
function registerCacheGauges(state: MetricsState): void {
  const { services, registry } = state;
  const caches = (field: 'entries' | 'capacity' | 'hits' | 'misses') =>
    function (this: Gauge<'cache'>) {
      for (const stats of services.chain.cacheStats?.() ?? []) this.set({ cache: stats.name }, stats[field]);
    };
  new Gauge({ name: 'weft_cache_entries', help: 'Entries held by each chain cache', labelNames: ['cache'] as const, registers: [registry], collect: caches('entries') });
  new Gauge({ name: 'weft_cache_capacity_entries', help: 'Most entries each chain cache may hold (from --cache-mb)', labelNames: ['cache'] as const, registers: [registry], collect: caches('capacity') });
  new Gauge({ name: 'weft_cache_hits', help: 'Lookups each chain cache answered since start', labelNames: ['cache'] as const, registers: [registry], collect: caches('hits') });
  new Gauge({ name: 'weft_cache_misses', help: 'Lookups each chain cache sent to the store since start', labelNames: ['cache'] as const, registers: [registry], collect: caches('misses') });
  new Gauge({
    name: 'weft_cache_hit_ratio',
    help: 'Hits / lookups of each chain cache since start (0 before any lookup)',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      for (const s of services.chain.cacheStats?.() ?? []) this.set({ cache: s.name }, s.hits + s.misses === 0 ? 0 : s.hits / (s.hits + s.misses));
    },
  });
}

/** Hash rate (local and network) and WebSocket subscriptions by topic. */
function registerActivityGauges(state: MetricsState): void {
  const { services, registry } = state;
  new Gauge({
    name: 'weft_hash_rate_hashes_per_second',
    help: 'Hash rate: this node\'s miners (local, measured) and the network (estimated from chain work)',
    labelNames: ['scope'] as const,
    registers: [registry],
    collect() {
      this.set({ scope: 'network' }, networkStats(services.chain).hashesPerSecond);
      this.set({ scope: 'local' }, services.mining?.localHashRate().hashesPerSecond ?? 0);
    },
  });
  new Gauge({
    name: 'weft_ws_subscriptions',
    help: 'Open WebSocket subscriptions by topic',
    labelNames: ['topic'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [topic, n] of Object.entries(state.wsSource?.().subscriptions ?? {})) this.set({ topic }, n);
    },
  });
}
