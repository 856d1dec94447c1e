/**
 * The composition root of a full node: opens the LMDB store, replays the chain, starts the HTTP server and, when
 * asked, the miner. Returns a handle whose close() stops everything in order and leaves the store consistent.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { mkdirSync } from 'node:fs';
import type { Chain } from '../../src/chain/chain.ts';
import { openLedgerChain, type Ledger } from '../../src/state/ledger.ts';
import { createNodeBlockVerifiers } from '../crypto/node-verifier.ts';
import { nodeSigCache } from '../crypto/verify-pool.ts';
import type { BlockTimings } from '../../src/chain/chain.ts';
import { difficultyFromTarget, compactToTarget } from '../../src/consensus/pow.ts';
import type { Miner } from '../../src/mining/miner.ts';
import { buildBlockTemplate } from '../../src/mining/template.ts';
import { systemClock } from '../../src/util/clock.ts';
import { fromHex, toHash0x, toHex } from '../../src/util/bytes.ts';
import { coinsToUnits } from '../../src/crypto/amount.ts';
import { decodeAgentRecord } from '../../src/kinds/agent/agent-record.ts';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { nodeVersion, startApiServers, type ApiServers } from '../http/start-api.ts';
import type { RpcServices } from '../../src/rpc/ports.ts';
import { createMiningControl, type NodeMiningControl } from '../mining/mining-control.ts';
import { createLedgerRewardReader } from '../../src/mining/ledger-rewards.ts';
import { installWasmBlake3 } from '../crypto/wasm-blake3.ts';
import { openLmdbStore, type LmdbStore } from '../storage/lmdb-store.ts';
import { startP2p, type RunningP2p } from '../p2p/start-p2p.ts';
import { p2pBridgePath } from '../p2p/ws-bridge.ts';
import { mempoolRelayPort } from '../../src/p2p/mempool-relay-port.ts';
import { openNodeAccessControl, type AccessControl } from '../auth/access-control.ts';
import { createNodeAlerts, type NodeAlerts } from '../alerts/start-alerts.ts';
import type { Server } from 'node:http';
import { createNodeA2aService } from '../a2a/node-a2a.ts';
import { mountA2a } from '../a2a/http.ts';
import { attachA2aWebSocket } from '../a2a/ws.ts';
import { registerA2aGrpc } from '../a2a/grpc.ts';
import type { A2aService } from '../a2a/service.ts';
import { createLedgerPort } from './ledger-port.ts';
import { fastJoin, fastJoinSkipReason } from './fast-join.ts';
import { startJoinHealth } from './join-health.ts';
import { chainStoreDir, startRejoiningNode, type JoinHooks } from './rejoin.ts';
import type { RunningNode, RpcServicePorts } from './running-node.ts';
import { createJoinGuard } from '../../src/p2p/join-guard.ts';
import type { BlockRuleError } from '../../src/chain/errors.ts';
import { compactStoreIfSparse } from '../storage/compact-store.ts';
import { startNodeMempool } from './mempool-service.ts';
import { createMempoolPort } from '../mempool/mempool-port.ts';
import { createPrivacyPort } from '../wallet/privacy-port.ts';
import { createWalletPort } from '../wallet/wallet-port.ts';
import { createWalletService } from '../wallet/wallet-service.ts';
import { legacyMinerKeyAddress, resolveRewardAddress, type RewardAddress } from './miner-address.ts';

export type { RunningNode, RpcServicePorts } from './running-node.ts';

/** Fee of the node's own claims: a claim is ~200 bytes, far above the minimum rate; paid from the pool when it can. */
const claimFeeCoins = 0.0001;

/**
 * How the A2A endpoint claims a completed task's escrow (src/a2a/settlement-follower.ts): the node's own claim_escrow
 * method, signed by the node wallet with the `agent-session-key-id` session key (or the agent's own key), the fee
 * from the agent's energy pool when it covers it; and where the claim transaction stands.
 */
function nodeClaims(config: NodeConfig, dispatcher: () => Dispatcher, ledger: Ledger) {
  const agent = decodeAddress(config.agentAccount!, config.params.hrp);
  return {
    async submitClaim(escrowId: Uint8Array): Promise<string> {
      const record = ledger.getRecord('agent', agent);
      const pool = record === undefined ? 0n : decodeAgentRecord(record).energyPool;
      const signer = config.agentSessionKeyId === undefined ? {} : { signer_role: 'session_key', session_key_id: config.agentSessionKeyId };
      const params = { escrow_id: `0x${toHex(escrowId)}`, fee: claimFeeCoins, use_energy: pool >= coinsToUnits(claimFeeCoins), ...signer };
      const result = (await dispatcher().call('claim_escrow', params, { transport: 'http', id: undefined })) as { hash: string };
      return result.hash;
    },
    transactionStatus(hash: string) {
      const bytes = fromHex(hash.slice(2));
      return dispatcher().services.ledger?.getTransaction(bytes)?.status ?? dispatcher().services.mempool?.get(bytes)?.status;
    },
  };
}

/**
 * Starts the node; a joined node whose join guard finds the joined chain wrong stops, wipes its chain store and joins
 * again by proof on its own (rejoin.ts). The handle stays valid across such re-joins.
 */
export async function startNode(config: NodeConfig, logger: Logger, ports: RpcServicePorts = {}): Promise<RunningNode> {
  return startRejoiningNode(config, logger, (instanceConfig, hooks) => startNodeInstance(instanceConfig, logger, ports, hooks));
}

async function startNodeInstance(config: NodeConfig, logger: Logger, ports: RpcServicePorts, hooks: JoinHooks): Promise<RunningNode> {
  mkdirSync(config.datadir, { recursive: true });
  const hashBackend = await installWasmBlake3();
  logger.debug({ hashBackend }, 'blake3 backend');
  // A store pruning left mostly free is copied compacted first (LMDB never shrinks its file; compact-store.ts).
  await compactStoreIfSparse(chainStoreDir(config.datadir), logger);
  const store: LmdbStore = openLmdbStore(chainStoreDir(config.datadir));
  const startedAt = Date.now();
  // An empty pruned node joins at a peer's proven pruning point instead of syncing from genesis (fast-join.ts);
  // meanwhile /health on the RPC port says how far it got (join-health.ts).
  const health = fastJoinSkipReason(config, store) === undefined ? await startJoinHealth(config, logger, nodeVersion) : undefined;
  const joined = await fastJoin({ config, store, logger, version: nodeVersion, exclude: hooks.exclude, ...(health ? { onProgress: health.update } : {}) }).finally(() => health?.close());
  // Block bodies' signatures go through libsecp256k1 (Wasm) on a worker pool, behind the verification cache the
  // mempool shares (server/crypto/node-verifier.ts); the ledger computes every block's state root.
  const blockVerifiers = createNodeBlockVerifiers(config.params);
  const pipeline = createPipelineEvents();
  const slowBlockMs = config.params.targetBlockTimeMs / 4;
  const { chain, ledger } = await openLedgerChain({
    params: config.params,
    store,
    clock: systemClock,
    verifier: blockVerifiers.verifier,
    preverify: blockVerifiers.preverify,
    onBlockTimings: (timings) => {
      pipeline.blockTimings(timings);
      // docs/operations.md "Metrics": a block that costs a quarter of the interval is a node falling behind.
      if (timings.totalMs > slowBlockMs) logger.warn({ event: 'slow_block', ...timings }, 'block took longer than a quarter of the block interval');
    },
    cacheMb: config.cacheMb,
    archive: config.archive,
    ...(joined ? { join: joined.trusted, joinProofHeaders: joined.proofHeaders } : {}),
    onPruning: (event) =>
      event.type === 'round'
        ? logger.info({ event: 'pruning_round', from: toHash0x(event.from.hash), to: toHash0x(event.to.hash), toBlueScore: event.to.header.blueScore, blocks: event.blocks, ms: event.ms }, 'pruned below the new pruning point')
        : logger.error({ event: 'pruning_failed', err: event.error }, 'pruning stopped: the node keeps running and keeps everything from here on; restart it to retry'),
  });
  const pruning = chain.pruning();
  logger.info(
    {
      network: config.network,
      datadir: config.datadir,
      blocks: chain.blockCount(),
      height: chain.selectedTip().height,
      replayed: chain.replayedAtOpen,
      cacheMb: config.cacheMb,
      archive: config.archive,
      pruningPoint: pruning ? toHash0x(pruning.pruningPoint.hash) : undefined,
      joinedAt: chain.joinedAt ? toHash0x(chain.joinedAt.hash) : undefined,
      ms: Date.now() - startedAt,
    },
    'chain loaded',
  );

  chain.onBlockAccepted(({ block, selectedTipChanged }) => {
    const h = block.header;
    logger.info(
      {
        event: 'block_committed',
        hash: toHash0x(block.hash),
        height: block.height,
        blueScore: h.blueScore,
        daaScore: h.daaScore,
        parents: h.parents.length,
        difficulty: difficultyFromTarget(compactToTarget(h.bits), config.params.maxTarget),
        selectedTip: selectedTipChanged,
      },
      'block committed',
    );
  });

  // The pool admits transactions (signatures on worker threads) and leaves/returns with the chain (mempool-service.ts).
  const mempool = startNodeMempool({ params: config.params, chain, ledger, store, clock: systemClock, logger });
  // Acknowledged transactions survive a kill -9: readmit the journal before anything can submit (mempool-service.ts).
  await mempool.restore();
  const buildTemplate = (request: { miner: Uint8Array; gpuMining: boolean; nowMs: number }) => {
    const began = performance.now();
    const template = buildBlockTemplate(chain, { ...request, selectTransactions: mempool.selectTransactions });
    pipeline.templateBuilt((performance.now() - began) / 1000);
    return template;
  };
  const wallets = createWalletService({ datadir: config.datadir, network: config.params, ...(config.walletPassphrase ? { passphrase: config.walletPassphrase } : {}) });
  logger.info({ passphraseSource: wallets.passphraseSource }, 'wallet keystore');
  // Rewards go to --miner-address, else to the default wallet's first address, so mined coins are spendable with
  // send_transaction out of the box (docs/mining.md "Reward address"). Resolved once, at start when mining.
  let reward: RewardAddress | undefined;
  const rewardAddress = (): RewardAddress => {
    if (reward) return reward;
    reward = resolveRewardAddress(config, wallets);
    logger.info({ address: reward.text, source: reward.source, wallet: reward.wallet, path: reward.path }, 'mining reward address');
    const legacy = legacyMinerKeyAddress(config);
    if (legacy && legacy.text !== reward.text) {
      logger.warn({ file: legacy.file, address: legacy.text }, 'miner.key from an earlier version is no longer paid; its coins stay with that key');
    }
    return reward;
  };
  const mining = createMiningControl({ chain, config, logger, rewards: createLedgerRewardReader(ledger), buildTemplate, rewardAddress });
  mempool.onInputsChanged(() => mining.notifyTemplateInputsChanged());
  if (config.mine) rewardAddress();
  // --mine: the Wasm pool with the configured threads; GPU mining is asked for over RPC (start_mining).
  if (config.mine) await mining.start({ threads: config.threads, gpuMining: false, gpuDevices: [] });
  // /health reads loop counters through the Miner shape until the HTTP layer takes the control itself.
  const idle = { running: false, backend: 'none', gpu: false, hashes: 0, blocksFound: 0, startedAtMs: null, templateBuiltAtMs: null, templatesBuilt: 0, templatesDropped: 0 };
  const miner: Miner = {
    start: () => undefined,
    stop: () => mining.stop().then(() => undefined),
    stats: () => mining.minerStats() ?? idle,
    invalidate: () => mining.notifyTemplateInputsChanged(),
  };

  // Transactions relay through the pool: peers' go through admission, admitted ones are announced (docs/p2p.md).
  // Bans and invalid blocks feed the alert monitor (security alerts); the monitor starts with the HTTP routes below.
  let alertsLate: NodeAlerts | undefined;
  // A joined chain is watched for heavier proofs and a poisoned join (join-guard.ts); a verdict re-joins (rejoin.ts).
  let p2pLate: RunningP2p | undefined;
  const guard = chain.joinedAt === undefined
    ? undefined
    : createJoinGuard({
        chain, joinedFrom: joined?.peer, ...(joined ? { joinedProof: joined.proof } : {}), node: () => p2pLate!.node,
        nowMs: () => systemClock.nowMs(), log: logger, onRejoin: hooks.onVerdict,
      });
  const p2p = await startP2p({
    config,
    chain,
    store,
    logger,
    version: nodeVersion,
    txPort: mempoolRelayPort(mempool.pool, mempool.onRebroadcast),
    onMisbehaviour: (event) => (event.kind === 'banned' ? alertsLate?.monitor.notePeerBanned(event.peer, event.reason) : alertsLate?.monitor.noteInvalidBlock()),
    ...(guard ? { blockRefused: (peer: string, error: BlockRuleError) => guard.blockRefused(peer, error) } : {}),
  });
  p2pLate = p2p;
  // syncStatus (percent, blocks/s, ETA) is read by /health and get_info next to synced.
  const node = { version: nodeVersion, startedAtMs: startedAt, clock: systemClock, synced: () => p2p.syncStatus().synced, syncStatus: () => p2p.syncStatus() };
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
  // The admin key in <datadir>/api.cookie (mode 0600) is written before any port opens; its path is logged, never the key.
  const { access, cookie } = await openNodeAccessControl(config.datadir, systemClock, { explorerPaths: ['/api/v1/stats', '/api/v1/explorer'], rateLimits: config.rateLimits });
  logger.info({ path: cookie.path, created: cookie.created }, 'api cookie');
  let alerts: NodeAlerts | undefined;
  let a2a: A2aService | undefined;
  let a2aWs: { close(): void } | undefined;
  // Routes mount once the ports are known and before the first request is routed (start-api.ts `mount`).
  const api = await startApiServers({
    services: { chain, node, mining, templates, peers: p2p.peerView, ...servicePorts },
    config,
    logger,
    miner,
    access,
    mount: async (app, servers) => {
      alerts = createNodeAlerts({ config, chain, clock: systemClock, logger, version: nodeVersion, httpPort: servers.httpPort });
      app.route('/alerts', alerts.service.app);
      a2a = await createNodeA2aService({
        chain,
        ledger,
        kv: store,
        baseUrl: `http://${config.host}:${servers.httpPort}`,
        ...(servers.grpc ? { grpcTarget: `${config.host}:${servers.grpc.port}` } : {}),
        network: config.network,
        version: nodeVersion,
        // push-allow-hosts: webhook receivers on private networks the operator allows (docs/a2a.md "Push notifications").
        pushAllowHosts: config.pushAllowHosts,
        // agent-account: tasks may be settled through escrows paying it (docs/settlement.md).
        ...(config.agentAccount ? { agentAccount: decodeAddress(config.agentAccount, config.params.hrp), claims: nodeClaims(config, () => api.dispatcher, ledger), ...(config.agentClaimMarginDaa === undefined ? {} : { claimMarginDaa: config.agentClaimMarginDaa }) } : {}),
        // OAuth access tokens of the node's own authorization server are A2A bearer credentials (docs/a2a.md).
        auth: {
          required: false,
          // The gRPC port admits only mutually authenticated TLS: its callers are `mtls:<fingerprint>` principals.
          mtls: servers.grpc !== undefined,
          bearer: async (token) => {
            const check = access.grants.checkAccess(token);
            return check.ok ? { id: `bearer:${check.clientId}`, scheme: 'bearer', scopes: check.scopes } : undefined;
          },
          oauth: {
            metadataUrl: `http://${config.host}:${servers.httpPort}/.well-known/oauth-authorization-server`,
            authorizationUrl: `http://${config.host}:${servers.httpPort}/oauth/authorize`,
            tokenUrl: `http://${config.host}:${servers.httpPort}/oauth/token`,
            scopes: { read_balance: 'owner views of balances and history', send_transactions: 'wallet and signing methods', mine_blocks: 'mining control' },
          },
        },
      });
      mountA2a(app, a2a);
      a2aWs = attachA2aWebSocket(servers.httpServer as Server, a2a);
      if (servers.grpc) registerA2aGrpc(servers.grpc.server, a2a);
    },
  });
  const httpPort = api.httpPort;
  api.metrics.setPipelineSource({
    onBlockTimings: pipeline.onBlockTimings,
    onTemplateBuilt: pipeline.onTemplateBuilt,
    verifyQueue: () => blockVerifiers.pool.queueLength(),
    sigCache: () => nodeSigCache.stats(),
  });
  if (!alerts) throw new Error('alerts were not mounted');
  alertsLate = alerts;
  alerts.start({ peerCount: () => p2p.node.peerCount(), peerVersions: () => p2p.node.peers().map((p) => p.userAgent) });
  const pruneTokens = setInterval(() => void access.grants.prune(), 60 * 60_000);
  pruneTokens.unref();
  const releaseBridge = api.ws.registerUpgradeHandler(p2pBridgePath, p2p.bridge);

  let closing: Promise<void> | undefined;
  return {
    chain,
    ledger,
    mining,
    httpPort,
    api,
    p2p,
    access,
    apiCookiePath: cookie.path,
    alerts,
    close() {
      closing ??= (async () => {
        await mining.close();
        await mempool.close();
        releaseBridge();
        await p2p.close();
        a2aWs?.close();
        await api.close();
        await a2a?.close();
        clearInterval(pruneTokens);
        await alerts?.close();
        await access.close();
        privacy.close();
        await chain.stopPruning();
        await chain.settled();
        await blockVerifiers.close();
        await store.flush();
        await store.close();
        logger.info('node stopped');
      })();
      return closing;
    },
  };
}

/** Block timings and template build times, fanned out to whoever listens (the metrics, once the API is up). */
function createPipelineEvents() {
  const blocks = new Set<(timings: BlockTimings) => void>();
  const templates = new Set<(seconds: number) => void>();
  return {
    blockTimings: (timings: BlockTimings) => blocks.forEach((listener) => listener(timings)),
    templateBuilt: (seconds: number) => templates.forEach((listener) => listener(seconds)),
    onBlockTimings: (listener: (timings: BlockTimings) => void) => void blocks.add(listener),
    onTemplateBuilt: (listener: (seconds: number) => void) => void templates.add(listener),
  };
}
