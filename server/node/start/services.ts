/**
 * The node's pool, wallets and mining, over the opened chain: the pool admits transactions (signatures on worker
 * threads) and follows the chain (mempool-service.ts), readmitting its journal before anything can submit; templates
 * select from it; rewards go to --miner-address, else the default wallet's first address (docs/mining.md "Reward
 * address"); --mine starts the Wasm pool with the configured threads (GPU mining is asked for over RPC).
 */
import type { Miner } from '../../../src/mining/miner.ts';
import { createLedgerRewardReader } from '../../../src/mining/ledger-rewards.ts';
import { buildBlockTemplate } from '../../../src/mining/template.ts';
import { systemClock } from '../../../src/util/clock.ts';
import type { Logger } from '../../logger.ts';
import { createMiningControl, type NodeMiningControl } from '../../mining/mining-control.ts';
import { createWalletService, type WalletService } from '../../wallet/wallet-service.ts';
import type { NodeConfig } from '../../config.ts';
import { startNodeMempool } from '../mempool-service.ts';
import { legacyMinerKeyAddress, resolveRewardAddress, type RewardAddress } from '../miner-address.ts';
import type { ChainParts, ServiceParts, TemplateRequest } from './node-state.ts';

export async function startNodeServices(parts: ChainParts): Promise<ServiceParts> {
  const { config, logger, chain, ledger, store, pipeline } = parts;
  const mempool = startNodeMempool({ params: config.params, chain, ledger, store, clock: systemClock, logger });
  // Acknowledged transactions survive a kill -9: readmit the journal before anything can submit (mempool-service.ts).
  await mempool.restore();
  const buildTemplate = (request: TemplateRequest) => {
    const began = performance.now();
    const template = buildBlockTemplate(chain, { ...request, selectTransactions: mempool.selectTransactions });
    pipeline.templateBuilt((performance.now() - began) / 1000);
    return template;
  };
  const wallets = createWalletService({ datadir: config.datadir, network: config.params, ...(config.walletPassphrase ? { passphrase: config.walletPassphrase } : {}) });
  logger.info({ passphraseSource: wallets.passphraseSource }, 'wallet keystore');
  const rewardAddress = rewardAddressOnce(config, logger, wallets);
  const mining = createMiningControl({ chain, config, logger, rewards: createLedgerRewardReader(ledger), buildTemplate, rewardAddress });
  mempool.onInputsChanged(() => mining.notifyTemplateInputsChanged());
  if (config.mine) rewardAddress();
  if (config.mine) await mining.start({ threads: config.threads, gpuMining: false, gpuDevices: [] });
  return { mempool, wallets, mining, miner: minerView(mining), buildTemplate };
}

/** The reward address, resolved once (at start when mining) and logged, with a warning for an old miner.key. */
function rewardAddressOnce(config: NodeConfig, logger: Logger, wallets: WalletService): () => RewardAddress {
  let reward: RewardAddress | undefined;
  return () => {
    if (reward) return reward;
    reward = resolveRewardAddress(config, wallets);
    logger.info({ address: reward.text, source: reward.source, wallet: reward.wallet, path: reward.path }, 'mining reward address');
    const legacy = legacyMinerKeyAddress(config);
    if (legacy && legacy.text !== reward.text) {
      logger.warn({ file: legacy.file, address: legacy.text }, 'miner.key from an earlier version is no longer paid; its coins stay with that key');
    }
    return reward;
  };
}

/** /health reads loop counters through the Miner shape until the HTTP layer takes the control itself. */
function minerView(mining: NodeMiningControl): Miner {
  const idle = { running: false, backend: 'none', gpu: false, hashes: 0, blocksFound: 0, startedAtMs: null, templateBuiltAtMs: null, templatesBuilt: 0, templatesDropped: 0 };
  return {
    start: () => undefined,
    stop: () => mining.stop().then(() => undefined),
    stats: () => mining.minerStats() ?? idle,
    invalidate: () => mining.notifyTemplateInputsChanged(),
  };
}
