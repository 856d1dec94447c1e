/**
 * The composition root of a full node: opens the LMDB store, replays the chain, starts the HTTP server and, when
 * asked, the miner. Returns a handle whose close() stops everything in order and leaves the store consistent.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { openChain, type Chain } from '../../src/chain/chain.ts';
import { BlockRuleError } from '../../src/chain/errors.ts';
import { difficultyFromTarget, compactToTarget } from '../../src/consensus/pow.ts';
import type { PowBackend } from '../../src/mining/job.ts';
import { createMiner, type Miner } from '../../src/mining/miner.ts';
import { systemClock } from '../../src/util/clock.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { createHttpApp } from '../http/app.ts';
import { openPowBackend } from '../mining/open-backend.ts';
import { installWasmBlake3 } from '../crypto/wasm-blake3.ts';
import { openLmdbStore, type LmdbStore } from '../storage/lmdb-store.ts';
import { resolveMinerAddress } from './miner-address.ts';

export interface RunningNode {
  readonly chain: Chain;
  readonly miner: Miner | undefined;
  readonly httpPort: number;
  close(): Promise<void>;
}

function randomNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return new DataView(bytes.buffer).getBigUint64(0);
}

export async function startNode(config: NodeConfig, logger: Logger): Promise<RunningNode> {
  mkdirSync(config.datadir, { recursive: true });
  const hashBackend = await installWasmBlake3();
  logger.debug({ hashBackend }, 'blake3 backend');
  const store: LmdbStore = openLmdbStore(join(config.datadir, 'chain'));
  const startedAt = Date.now();
  const chain = await openChain({ params: config.params, store, clock: systemClock });
  logger.info(
    { network: config.network, datadir: config.datadir, blocks: chain.blockCount(), height: chain.selectedTip().height, ms: Date.now() - startedAt },
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

  let miner: Miner | undefined;
  let backend: PowBackend | undefined;
  if (config.mine) {
    const address = resolveMinerAddress(config);
    backend = await openPowBackend(config.threads, logger);
    miner = createMiner({
      chain,
      backend,
      clock: systemClock,
      miner: address.bytes,
      randomNonce,
      submit: async (block) => {
        try {
          return await chain.addBlock(block);
        } catch (error) {
          if (error instanceof BlockRuleError) logger.warn({ rule: error.rule, err: error.message }, 'mined block rejected');
          else throw error;
          return undefined;
        }
      },
      onError: (error) => logger.error({ err: error }, 'miner error'),
    });
    miner.start();
    logger.info({ address: address.text, keyFile: address.keyFile, backend: backend.name, threads: config.threads }, 'mining started');
  }

  const app = createHttpApp({ chain, config, miner });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.rpcPort, hostname: config.host }, () => resolve(s));
  });
  const address = server.address();
  const httpPort = typeof address === 'object' && address ? address.port : config.rpcPort;
  logger.info({ url: `http://${config.host}:${httpPort}/`, port: httpPort }, 'http listening');

  let closing: Promise<void> | undefined;
  return {
    chain,
    miner,
    httpPort,
    close() {
      closing ??= (async () => {
        await miner?.stop();
        await backend?.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await chain.settled();
        await store.flush();
        await store.close();
        logger.info('node stopped');
      })();
      return closing;
    },
  };
}
