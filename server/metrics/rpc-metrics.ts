/** RPC call counters and latency by method, code and transport, from the dispatcher's observer. */
import { Counter, Histogram } from 'prom-client';
import type { CallObserver } from '../../src/rpc/dispatcher.ts';
import type { MetricsState } from './metrics-state.ts';

export function registerRpcMetrics(state: MetricsState): CallObserver {
  const requests = new Counter({
    name: 'weft_rpc_requests_total',
    help: 'RPC calls by method, JSON-RPC result code (0 = success) and transport',
    labelNames: ['method', 'code', 'transport'] as const,
    registers: [state.registry],
  });
  const latency = new Histogram({
    name: 'weft_rpc_request_duration_seconds',
    help: 'RPC call handling time by method and transport',
    labelNames: ['method', 'transport'] as const,
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [state.registry],
  });
  const seriesByKey = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();
  return (method, code, seconds, transport) => {
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
  };
}
