/**
 * The node's alert service (docs/alerts.md): its store at `<datadir>/alerts`, SMTP from the config, routes for
 * `/alerts` on port 8080, and the monitor fed by the chain and the peer set on a timer. The p2p layer reports bans
 * and invalid blocks through `monitor.notePeerBanned` / `monitor.noteInvalidBlock`.
 */
import { join } from 'node:path';
import type { Chain } from '../../src/chain/chain.ts';
import type { Clock } from '../../src/util/clock.ts';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { openLmdbStore } from '../storage/lmdb-store.ts';
import { alertCheckIntervalMs } from './alert-limits.ts';
import { createAlertService, type AlertService } from './alert-service.ts';
import { createSmtpMailer } from './mailer.ts';
import { createNodeMonitor, type NodeMonitor } from './node-monitor.ts';

const alertStoreMapBytes = 256 * 1024 * 1024;

export interface NodeAlerts {
  readonly service: AlertService;
  readonly monitor: NodeMonitor;
  /** Starts the periodic checks over the node's peer set. */
  start(peers: { peerCount(): number; peerVersions(): readonly string[] }): void;
  close(): Promise<void>;
}

/** Synchronous, so the caller can mount `service.app` right after the HTTP server starts, before any request. */
export function createNodeAlerts(options: { config: NodeConfig; chain: Chain; clock: Clock; logger: Logger; version: string; httpPort: number }): NodeAlerts {
  const { config, chain, clock, logger } = options;
  const mailer = config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.alertsFrom }) : undefined;
  const service = createAlertService({
    kv: openLmdbStore(join(config.datadir, 'alerts'), { mapSizeBytes: alertStoreMapBytes }),
    clock,
    mailer,
    publicUrl: config.alertsUrl ?? `http://${config.host}:${options.httpPort}/alerts`,
    network: config.network,
    log: (level, fields, message) => logger[level](fields, message),
  });
  let peersSource: { peerCount(): number; peerVersions(): readonly string[] } = { peerCount: () => 0, peerVersions: () => [] };
  let hadPeers = false;
  const monitor = createNodeMonitor({
    clock,
    version: options.version,
    raise: (event) => void service.raise(event),
    source: {
      height: () => chain.selectedTip().height,
      peerCount: () => {
        const n = peersSource.peerCount();
        hadPeers ||= n > 0;
        return n;
      },
      peerVersions: () => peersSource.peerVersions(),
      // A node with seeds, or one that had peers, is meant to be connected; a solo devnet is not.
      expectPeers: () => config.addnode.length > 0 || hadPeers,
      expectBlocks: () => config.mine || config.addnode.length > 0 || hadPeers,
    },
  });
  const unsubscribe = chain.onBlockAccepted(() => monitor.noteBlock());
  // A finality conflict is never a silent reorg: a log line and a security alert.
  const unsubscribeConflicts = chain.onFinalityConflict((event) => {
    logger.warn({ block: event.block, finalityPoint: event.finalityPoint, selectedTip: event.selectedTip }, 'finality conflict: refused a heavier chain that leaves the finality point');
    monitor.noteFinalityConflict(event.block, event.finalityPoint);
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    service,
    monitor,
    start(peers) {
      peersSource = peers;
      timer = setInterval(() => {
        monitor.tick();
        void service.store.prune();
      }, alertCheckIntervalMs);
      timer.unref();
      if (mailer === undefined) logger.info('alerts: no smtp-url configured; subscriptions are refused with 503');
    },
    async close() {
      clearInterval(timer);
      unsubscribe();
      unsubscribeConflicts();
      await service.close();
    },
  };
}
