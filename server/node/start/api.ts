/**
 * The node's client-facing stage: the RPC service ports over the pool, wallets, privacy and ledger; the admin key in
 * <datadir>/api.cookie (mode 0600), written before any port opens (its path is logged, never the key); the API
 * servers (server/http/start-api.ts) with alerts and A2A mounted before the first request is routed; the block
 * pipeline's metrics; the alert monitor; the hourly prune of expired OAuth tokens; the browser p2p bridge.
 */
import type { Hono } from 'hono';
import { systemClock } from '../../../src/util/clock.ts';
import { createNodeAlerts, type NodeAlerts } from '../../alerts/start-alerts.ts';
import { openNodeAccessControl } from '../../auth/access-control.ts';
import { nodeSigCache } from '../../crypto/verify-pool.ts';
import { nodeVersion, startApiServers, type ApiServers, type MountedServers } from '../../http/start-api.ts';
import { createMempoolPort } from '../../mempool/mempool-port.ts';
import { p2pBridgePath } from '../../p2p/ws-bridge.ts';
import type { RunningP2p } from '../../p2p/start-p2p.ts';
import { createPrivacyPort } from '../../wallet/privacy-port.ts';
import { createWalletPort } from '../../wallet/wallet-port.ts';
import { createLedgerPort } from '../ledger-port.ts';
import type { RpcServicePorts } from '../running-node.ts';
import { mountNodeA2a } from './a2a.ts';
import type { ApiParts, ChainParts, LateParts, ServiceParts } from './node-state.ts';

export async function startNodeApi(parts: ChainParts & ServiceParts, p2p: RunningP2p, late: LateParts, ports: RpcServicePorts): Promise<ApiParts> {
  const { config, logger, chain, ledger, mempool, wallets, mining, buildTemplate } = parts;
  // syncStatus (percent, blocks/s, ETA) is read by /health and get_info next to synced.
  const node = { version: nodeVersion, startedAtMs: parts.startedAt, clock: systemClock, synced: () => p2p.syncStatus().synced, syncStatus: () => p2p.syncStatus() };
  // get_block_template: the same builder the local miner uses (mempool selection, state root).
  const templates = { build: (r: { miner: Uint8Array; gpuMining: boolean }) => buildTemplate({ ...r, nowMs: systemClock.nowMs() }) };
  // Its close() saves the node wallets' stealth scans (docs/privacy.md "Wallets") on a clean shutdown.
  const privacy = createPrivacyPort({ wallets, chain, record: (namespace, id) => ledger.getRecord(namespace, id), pool: mempool.pool });
  const servicePorts = {
    ledger: createLedgerPort(ledger, chain),
    mempool: createMempoolPort(mempool.pool, mempool.submit, (hash, hops) => p2p.node.routeOwnTransaction(hash, hops)),
    wallet: createWalletPort(wallets, mempool.pool, chain.params.chainId),
    privacy,
    ...ports,
  };
  const { access, cookie } = await openNodeAccessControl(config.datadir, systemClock, { explorerPaths: ['/api/v1/stats', '/api/v1/explorer'], rateLimits: config.rateLimits });
  logger.info({ path: cookie.path, created: cookie.created }, 'api cookie');
  let mountedAlerts: NodeAlerts | undefined;
  // Routes mount once the ports are known and before the first request is routed (start-api.ts `mount`).
  const api: ApiServers = await startApiServers({
    services: { chain, node, mining, templates, peers: p2p.peerView, ...servicePorts },
    config,
    logger,
    miner: parts.miner,
    access,
    mount: async (app, servers) => {
      mountedAlerts = mountAlerts(parts, app, servers);
      await mountNodeA2a(parts, late, { app, servers, access, dispatcher: () => api.dispatcher });
    },
  });
  feedPipelineMetrics(parts, api);
  if (!mountedAlerts) throw new Error('alerts were not mounted');
  const alerts = mountedAlerts;
  late.alerts = alerts;
  alerts.start({ peerCount: () => p2p.node.peerCount(), peerVersions: () => p2p.node.peers().map((p) => p.userAgent) });
  const pruneTokens = setInterval(() => void access.grants.prune(), 60 * 60_000);
  pruneTokens.unref();
  const releaseBridge = api.ws.registerUpgradeHandler(p2pBridgePath, p2p.bridge);
  return { privacy, access, apiCookiePath: cookie.path, api, alerts, pruneTokens, releaseBridge };
}

/** Alert subscriptions at /alerts (docs/alerts.md); the monitor starts once the API is up. */
function mountAlerts(parts: ChainParts, app: Hono, servers: MountedServers): NodeAlerts {
  const { config, chain, logger } = parts;
  const alerts = createNodeAlerts({ config, chain, clock: systemClock, logger, version: nodeVersion, httpPort: servers.httpPort });
  app.route('/alerts', alerts.service.app);
  return alerts;
}

/** Block stage timings, template builds, the verify pool's queue and the signature cache, at /metrics. */
function feedPipelineMetrics(parts: ChainParts, api: ApiServers): void {
  const { pipeline, blockVerifiers } = parts;
  api.metrics.setPipelineSource({
    onBlockTimings: pipeline.onBlockTimings,
    onTemplateBuilt: pipeline.onTemplateBuilt,
    verifyQueue: () => blockVerifiers.pool.queueLength(),
    sigCache: () => nodeSigCache.stats(),
  });
}
