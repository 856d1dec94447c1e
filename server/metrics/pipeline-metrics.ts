/** The block pipeline's figures (issue 29 "metrics that show it"): stage timings, template builds, verify pool, cache. */
import { Histogram } from 'prom-client';
import { scrapeGauge, type MetricsState, type PipelineSource } from './metrics-state.ts';

/** Registers the pipeline's metrics; answers how its source is set once the node's pipeline exists. */
export function registerPipelineMetrics(state: MetricsState): (source: PipelineSource) => void {
  const stageSeconds = new Histogram({
    name: 'weft_block_stage_seconds',
    help: 'Time each accepted block spent in each processing stage (preverify: proofs on the verify pool; body; header; acceptance; commit; total)',
    labelNames: ['stage'] as const,
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [state.registry],
  });
  const templateSeconds = new Histogram({
    name: 'weft_template_build_seconds',
    help: 'Time to build a block template (transaction selection, state root)',
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [state.registry],
  });
  const gauge = (name: string, help: string, read: () => number) => scrapeGauge(state, name, help, read);
  gauge('weft_verify_queue_items', 'Signature checks waiting for the block verify pool\'s next flush', () => state.pipeline?.verifyQueue().queuedItems ?? 0);
  gauge('weft_verify_chunks_in_flight', 'Chunks the block verify pool\'s workers owe answers for', () => state.pipeline?.verifyQueue().chunksInFlight ?? 0);
  gauge('weft_sig_cache_entries', 'Valid signatures held by the verification cache', () => state.pipeline?.sigCache().entries ?? 0);
  gauge('weft_sig_cache_hits', 'Verification cache lookups answered since start', () => state.pipeline?.sigCache().hits ?? 0);
  gauge('weft_sig_cache_misses', 'Verification cache lookups that went to a verifier since start', () => state.pipeline?.sigCache().misses ?? 0);
  gauge('weft_sig_cache_hit_ratio', 'Hits / lookups of the verification cache since start (0 before any lookup)', () => {
    const c = state.pipeline?.sigCache();
    return c === undefined || c.hits + c.misses === 0 ? 0 : c.hits / (c.hits + c.misses);
  });
  return (source) => {
    state.pipeline = source;
    const stages = (['preverify', 'body', 'header', 'acceptance', 'commit', 'total'] as const).map((stage) => stageSeconds.labels({ stage }));
    source.onBlockTimings((t) => {
      [t.preverifyMs, t.bodyMs, t.headerMs, t.acceptanceMs, t.commitMs, t.totalMs].forEach((ms, i) => stages[i]!.observe(ms / 1000));
    });
    source.onTemplateBuilt((seconds) => templateSeconds.observe(seconds));
  };
}
