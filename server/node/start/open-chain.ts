/**
 * The first stage of a node's start (docs/operations.md "Start-up"): the datadir, the hash backend, the LMDB store
 * (compacted first when pruning left it mostly free), a join by proof when the store is empty (fast-join.ts, with
 * /health answering meanwhile, join-health.ts), then the chain and ledger opened on it, replayed or joined.
 */
import { mkdirSync } from 'node:fs';
import type { Chain } from '../../../src/chain/chain.ts';
import { compactToTarget, difficultyFromTarget } from '../../../src/consensus/pow.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { toHash0x } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import type { NodeConfig } from '../../config.ts';
import { createNodeBlockVerifiers } from '../../crypto/node-verifier.ts';
import { installWasmBlake3 } from '../../crypto/wasm-blake3.ts';
import { fastVerifier } from '../../crypto/fast-verifier.ts';
import { nativeSchnorrStatus } from '../../crypto/native-verifier.ts';
import { nodeVersion } from '../../http/start-api.ts';
import type { Logger } from '../../logger.ts';
import { compactStoreIfSparse } from '../../storage/compact-store.ts';
import { openLmdbStore, type LmdbStore } from '../../storage/lmdb-store.ts';
import { fastJoin, fastJoinSkipReason, type FastJoinResult } from '../fast-join.ts';
import { startJoinHealth } from '../join-health.ts';
import { chainStoreDir, type JoinHooks } from '../rejoin.ts';
import type { ChainParts } from './node-state.ts';
import { createPipelineEvents } from './pipeline-events.ts';

export async function openNodeChain(config: NodeConfig, logger: Logger, hooks: JoinHooks): Promise<ChainParts> {
  mkdirSync(config.datadir, { recursive: true });
  const hashBackend = await installWasmBlake3();
  logger.debug({ hashBackend }, 'blake3 backend');
  logger.info({ event: 'signature_backend', backend: fastVerifier.name, native: nativeSchnorrStatus }, 'signature verification backend');
  // A store pruning left mostly free is copied compacted first (LMDB never shrinks its file; compact-store.ts).
  await compactStoreIfSparse(chainStoreDir(config.datadir), logger);
  const store: LmdbStore = openLmdbStore(chainStoreDir(config.datadir));
  const startedAt = Date.now();
  const joined = await joinIfEmpty(config, logger, store, hooks);
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
  logChainLoaded(config, logger, chain, startedAt);
  logCommittedBlocks(config, logger, chain);
  return { config, logger, startedAt, store, joined, blockVerifiers, pipeline, chain, ledger };
}

/**
 * An empty pruned node joins at a peer's proven pruning point instead of syncing from genesis (fast-join.ts);
 * meanwhile /health on the RPC port says how far it got (join-health.ts).
 */
async function joinIfEmpty(config: NodeConfig, logger: Logger, store: LmdbStore, hooks: JoinHooks): Promise<FastJoinResult | undefined> {
  const health = fastJoinSkipReason(config, store) === undefined ? await startJoinHealth(config, logger, nodeVersion) : undefined;
  return fastJoin({ config, store, logger, version: nodeVersion, exclude: hooks.exclude, ...(health ? { onProgress: health.update } : {}) }).finally(() => health?.close());
}

function logChainLoaded(config: NodeConfig, logger: Logger, chain: Chain, startedAt: number): void {
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
}

function logCommittedBlocks(config: NodeConfig, logger: Logger, chain: Chain): void {
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
}
