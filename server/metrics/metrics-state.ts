/**
 * The state of a node's metrics (server/metrics.ts): its own registry (several nodes in one process never share
 * counters), the services read at scrape time, and the sources that report once the servers are up.
 */
import { Gauge, type Registry } from 'prom-client';
import type { BlockTimings } from '../../src/chain/chain.ts';
import type { SigCacheStats } from '../../src/crypto/sig-cache.ts';
import type { RpcServices } from '../../src/rpc/ports.ts';

/** The block pipeline's figures (issue 29 "metrics that show it"), wired by server/node/start/api.ts. */
export interface PipelineSource {
  onBlockTimings(listener: (timings: BlockTimings) => void): void;
  onTemplateBuilt(listener: (seconds: number) => void): void;
  /** The block verify pool's queue: checks waiting for a flush, chunks the workers owe. */
  verifyQueue(): { readonly queuedItems: number; readonly chunksInFlight: number };
  sigCache(): SigCacheStats;
}

/** What the WebSocket server reports: its live connections and subscriptions by topic. */
export type WsSource = () => { connections: number; subscriptions: Record<string, number> };

export interface MetricsState {
  readonly registry: Registry;
  readonly services: RpcServices;
  wsSource: WsSource | undefined;
  pipeline: PipelineSource | undefined;
}

/** A gauge read at scrape time. */
export function scrapeGauge(state: MetricsState, name: string, help: string, read: () => number): Gauge {
  return new Gauge({ name, help, registers: [state.registry], collect() { this.set(read()); } });
}
