/**
 * Prometheus metrics at GET /metrics (prom-client), one registry per node so that several nodes in one process
 * (tests) never share counters. Request counters and latency come from the dispatcher's observer; chain, mempool,
 * peer, hash-rate and WebSocket figures are read at scrape time, so they are never stale.
 *
 * The state lives in server/metrics/metrics-state.ts; each group registers itself: rpc-metrics.ts, chain-gauges.ts,
 * pipeline-metrics.ts (in that order: the order /metrics lists them).
 */
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { CallObserver } from '../src/rpc/dispatcher.ts';
import type { RpcServices } from '../src/rpc/ports.ts';
import { registerChainGauges } from './metrics/chain-gauges.ts';
import type { MetricsState, PipelineSource, WsSource } from './metrics/metrics-state.ts';
import { registerPipelineMetrics } from './metrics/pipeline-metrics.ts';
import { registerRpcMetrics } from './metrics/rpc-metrics.ts';

;

export interface NodeMetrics {
  readonly registry: Registry;
  readonly observe: CallObserver;
  /** WebSocket servers report their live figures here. */
  setWsSource(source: WsSource): void;
  setPipelineSource(source: PipelineSource): void;
}

export function createNodeMetrics(services: RpcServices): NodeMetrics {
  const state: MetricsState = { registry: new Registry(), services, wsSource: undefined, pipeline: undefined };
  collectDefaultMetrics({ register: state.registry, prefix: 'weft_process_' });
  const observe = registerRpcMetrics(state);
  registerChainGauges(state);
  const setPipelineSource = registerPipelineMetrics(state);
  return {
    registry: state.registry,
    setPipelineSource,
    observe,
    setWsSource(source) {
      state.wsSource = source;
    },
  };
}
