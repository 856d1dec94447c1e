/**
 * Prometheus metrics at GET /metrics (prom-client), one registry per node so that several nodes in one process
 * (tests) never share counters. Request counters and latency come from the dispatcher's observer; chain, mempool,
 * peer, hash-rate and WebSocket figures are read at scrape time, so they are never stale.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { networkStats } from '../src/rpc/chain-stats.ts';
import type { CallObserver } from '../src/rpc/dispatcher.ts';
import type { RpcServices } from '../src/rpc/ports.ts';
import type { BlockTimings } from '../src/chain/chain.ts';
import type { SigCacheStats } from '../src/crypto/sig-cache.ts';

/** The block pipeline's figures (issue 29 "metrics that show it"), wired by server/node/start-node.ts. */
export interface PipelineSource {
  onBlockTimings(listener: (timings: BlockTimings) => void): void;
  onTemplateBuilt(listener: (seconds: number) => void): void;
  /** The block verify pool's queue: checks waiting for a flush, chunks the workers owe. */
  verifyQueue(): { readonly queuedItems: number; readonly chunksInFlight: number };
  sigCache(): SigCacheStats;
}

export interface NodeMetrics {
  readonly registry: Registry;
  readonly observe: CallObserver;
  /** WebSocket servers report their live figures here. */
  setWsSource(source: () => { connections: number; subscriptions: Record<string, number> }): void;
  setPipelineSource(source: PipelineSource): void;
}

export function createNodeMetrics(services: RpcServices): NodeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'weft_process_' });
  let wsSource: (() => { connections: number; subscriptions: Record<string, number> }) | undefined;

  const requests = new Counter({
    name: 'weft_rpc_requests_total',
    help: 'RPC calls by method, JSON-RPC result code (0 = success) and transport',
    labelNames: ['method', 'code', 'transport'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'weft_rpc_request_duration_seconds',
    help: 'RPC call handling time by method and transport',
    labelNames: ['method', 'transport'] as const,
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const seriesByKey = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });

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
  gauge('weft_ws_connections', 'Open WebSocket connections', () => wsSource?.().connections ?? 0);
  // Per-block caches bounded by --cache-mb (docs/storage.md "Caches"): entries, capacity and lookups by outcome.
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
      for (const [topic, n] of Object.entries(wsSource?.().subscriptions ?? {})) this.set({ topic }, n);
    },
  });

  let pipeline: PipelineSource | undefined;
  const stageSeconds = new Histogram({
    name: 'weft_block_stage_seconds',
    help: 'Time each accepted block spent in each processing stage (preverify: proofs on the verify pool; body; header; acceptance; commit; total)',
    labelNames: ['stage'] as const,
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const templateSeconds = new Histogram({
    name: 'weft_template_build_seconds',
    help: 'Time to build a block template (transaction selection, state root)',
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  gauge('weft_verify_queue_items', 'Signature checks waiting for the block verify pool\'s next flush', () => pipeline?.verifyQueue().queuedItems ?? 0);
  gauge('weft_verify_chunks_in_flight', 'Chunks the block verify pool\'s workers owe answers for', () => pipeline?.verifyQueue().chunksInFlight ?? 0);
  gauge('weft_sig_cache_entries', 'Valid signatures held by the verification cache', () => pipeline?.sigCache().entries ?? 0);
  gauge('weft_sig_cache_hits', 'Verification cache lookups answered since start', () => pipeline?.sigCache().hits ?? 0);
  gauge('weft_sig_cache_misses', 'Verification cache lookups that went to a verifier since start', () => pipeline?.sigCache().misses ?? 0);
  gauge('weft_sig_cache_hit_ratio', 'Hits / lookups of the verification cache since start (0 before any lookup)', () => {
    const c = pipeline?.sigCache();
    return c === undefined || c.hits + c.misses === 0 ? 0 : c.hits / (c.hits + c.misses);
  });

  return {
    registry,
    setPipelineSource(source) {
      pipeline = source;
      const stages = (['preverify', 'body', 'header', 'acceptance', 'commit', 'total'] as const).map((stage) => stageSeconds.labels({ stage }));
      source.onBlockTimings((t) => {
        [t.preverifyMs, t.bodyMs, t.headerMs, t.acceptanceMs, t.commitMs, t.totalMs].forEach((ms, i) => stages[i]!.observe(ms / 1000));
      });
      source.onTemplateBuilt((seconds) => templateSeconds.observe(seconds));
    },
    observe(method, code, seconds, transport) {
      // prom-client hashes the label object on every inc/observe; the labelled children are looked up once per
      // (method, code, transport) instead — a bounded set: unknown methods are one name, codes come from one table.
      const key = `${method}|${code}|${transport}`;
      let series = seriesByKey.get(key);
      if (series === undefined) {
        const name = method || '(none)';
        series = { count: requests.labels({ method: name, code: String(code), transport }), latency: latency.labels({ method: name, transport }) };
        seriesByKey.set(key, series);
      }
      series.count.inc();
      series.latency.observe(seconds);
    },
    setWsSource(source) {
      wsSource = source;
    },
  };
}
