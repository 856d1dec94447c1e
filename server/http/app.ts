/**
 * The node's HTTP surface on port 8080 (and 8443 with TLS) beside JSON-RPC (served before Hono: rpc-listener.ts):
 * the REST API (rest-routes.ts), OpenAPI, explorer statistics, `/health` (liveness and readiness: sync state, peers, height), Prometheus `/metrics`
 * and a status page at `/`. Other issues mount their routes (A2A, OAuth, the web app) on the returned app.
 */
import { Hono } from 'hono';
import type { Miner } from '../../src/mining/miner.ts';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';
import type { NodeMetrics } from '../metrics.ts';
import { RouteNotFoundError } from '../../src/rpc/errors.ts';
import { restError } from './http-errors.ts';
import { mountRestRoutes } from './rest-routes.ts';
import { mountWebApp } from './web-app.ts';
import { securityHeaders } from './security-headers.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { PrunerStatus } from '../../src/chain/pruner.ts';
import { syncHealthFields } from '../p2p/sync-health.ts';

export interface HttpAppDeps {
  readonly dispatcher: Dispatcher;
  readonly config: NodeConfig;
  readonly version: string;
  readonly metrics: NodeMetrics;
  readonly miner: Miner | undefined;
  /** Credentials, rate limits and scopes before every route (server/auth, docs/auth.md); absent in bare tests. */
  readonly access?: AccessControl | undefined;
  /** The WebSocket port once listening (for the web app's /web-config.json); config.wsPort when absent. */
  readonly wsPort?: () => number;
}

/** docs/storage.md "Pruning": an archive keeps everything; a pruned node names its pruning point and progress. */
function pruningHealth(status: PrunerStatus | undefined) {
  if (status === undefined) return { archive: true };
  return {
    archive: false,
    pruning_point: toHash0x(status.pruningPoint.hash),
    pruning_point_blue_score: status.pruningPoint.header.blueScore,
    pruning_point_height: status.pruningPoint.height,
    pruned_through: toHash0x(status.prunedThrough.hash),
    running: status.running,
  };
}

export function createHttpApp(deps: HttpAppDeps): Hono {
  const { dispatcher, config, miner, metrics } = deps;
  const { chain, node, peers } = dispatcher.services;
  const app = new Hono();
  // First, so every answer carries them, refusals of the access control included (security-headers.ts).
  app.use('*', securityHeaders({ wsPort: deps.wsPort ?? (() => config.wsPort), ...(config.widgetFrameAncestors ? { widgetFrameAncestors: config.widgetFrameAncestors } : {}) }));
  if (deps.access) {
    // Scopes are checked by the dispatcher, once per call, for JSON-RPC and REST alike (docs/auth.md "Scopes").
    app.use('*', ...deps.access.middleware);
    deps.access.mountRoutes(app);
  }

  const health = () => {
    const tip = chain.selectedTip();
    const stats = miner?.stats();
    const synced = node.synced();
    return {
      status: synced ? 'ok' : 'syncing',
      ready: synced,
      network: config.network,
      version: deps.version,
      height: tip.height,
      blocks: chain.blockCount(),
      tip_hash: toHash0x(tip.hash),
      blue_score: tip.header.blueScore,
      tips: chain.tips().length,
      orphans: chain.orphanCount(),
      synced,
      sync: syncHealthFields(node),
      peers: peers?.peers().length ?? 0,
      uptime_seconds: Math.floor((node.clock.nowMs() - node.startedAtMs) / 1000),
      mining: stats ? { running: stats.running, backend: stats.backend, hashes: stats.hashes, blocks_found: stats.blocksFound } : { running: false },
      pruning: pruningHealth(chain.pruning?.()),
    };
  };
  // Liveness must not fail while a node syncs (a restart would only start the sync over); readiness may.
  app.get('/health', (c) => c.json(health()));
  app.get('/health/live', (c) => c.json({ status: 'ok' }));
  app.get('/health/ready', (c) => {
    const h = health();
    return c.json(h, h.ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { 'content-type': metrics.registry.contentType });
  });

  mountRestRoutes(app, dispatcher, deps.version);
  // The web app at '/' when built (dist/web), the status page at /status (server/http/web-app.ts, docs/web.md).
  mountWebApp(app, { network: config.network, wsPort: deps.wsPort ?? (() => config.wsPort), health });
  app.notFound((c) => restError(c, new RouteNotFoundError(c.req.path)));
  return app;
}
