// A pool holding more than a block never stops the chain (the line-rate halt): every template the node builds from
// an over-full pool is within the consensus size rule, so the node's own blocks are accepted and the pool drains.
// Before the fix, selection counted each transaction's bytes but not the length prefix the block codec writes before
// it: a pool past ~1 MB of transactions gave a template over blockBytesMax, refused as body.size.too-large, rebuilt
// identically, forever.
import { afterEach, describe, expect, it } from 'vitest';
import { blockEncodedBytes, type Block } from '../../../src/codec/block.ts';
import { searchNonce } from '../../../src/consensus/pow.ts';
import { blockBytesMax } from '../../../src/limits.ts';
import { buildBlockTemplate } from '../../../src/mining/template.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { createLogger } from '../../../server/logger.ts';
import { startNodeMempool, type NodeMempool } from '../../../server/node/mempool-service.ts';
import { ledgerChain, transfer, wallet, type LedgerFixture } from '../../helpers/ledger-fixtures.ts';
import { addressOfKey, signedTransfer, testKey } from '../../helpers/mempool-fixtures.ts';

const miner = wallet(10_000);
const senders = Array.from({ length: 48 }, (_, i) => testKey(i));
/** Largest memo: ~420-byte transfers, so a block holds ~2,370 of them and the pool below holds 1.3 blocks. */
const memo = new Uint8Array(256).fill(0x6d);
const perSender = 64;

let mempool: NodeMempool | undefined;
afterEach(async () => {
  await mempool?.close();
  mempool = undefined;
});

function mineTemplate(fixture: LedgerFixture, pool: NodeMempool): Block {
  const { chain } = fixture;
  const template = buildBlockTemplate(chain, {
    miner: miner.address,
    gpuMining: false,
    nowMs: chain.selectedTip().header.timestampMs + 1_000,
    selectTransactions: pool.selectTransactions,
  });
  const found = searchNonce(template.prePowHash, template.target, 0n, 1_000_000);
  if (found.nonce === null) throw new Error('no nonce in range');
  return { header: { ...template.header, nonce: found.nonce }, transactions: template.transactions };
}

describe('a pool larger than a block', () => {
  it('fills templates to the size rule exactly, and every block the node mines from it is accepted', async () => {
    const fixture = await ledgerChain({ verifier: fastVerifier });
    const { chain, ledger } = fixture;
    mempool = startNodeMempool({ params: chain.params, chain, ledger, store: createMemoryStore(), clock: createManualClock(Date.now()), logger: createLogger('silent') });
    // Fund the senders from mined coins.
    for (let i = 0; i < 3; i++) await fixture.mine({ miner: miner.address });
    const funding = senders.map((key, i) => transfer(miner, addressOfKey(key), 200_000n, BigInt(i)));
    await fixture.mine({ miner: miner.address, transactions: funding });
    await fixture.mine({ miner: miner.address });
    for (const key of senders) expect(ledger.account(addressOfKey(key)).balance).toBe(200_000n);

    // 48 × 64 transfers of 420 bytes at the relay minimum fee rate and above: ~1.3 blocks' worth.
    const chainId = chain.params.chainId;
    const txs = senders.flatMap((key, i) =>
      Array.from({ length: perSender }, (_, n) => signedTransfer({ key, chainId, to: miner.address, amount: 1n, nonce: BigInt(n), fee: 450n + BigInt(i), memo })),
    );
    const added = await mempool.pool.addBatch(txs);
    expect(added.filter((r) => r.ok).length).toBe(txs.length);
    const poolBytes = txs.reduce((sum, tx) => sum + tx.length, 0);
    expect(poolBytes).toBeGreaterThan(blockBytesMax);

    const startCount = chain.blockCount();
    let carried = 0;
    for (let round = 0; round < 3; round++) {
      const block = mineTemplate(fixture, mempool);
      expect(blockEncodedBytes(block)).toBeLessThanOrEqual(blockBytesMax);
      const result = await chain.addBlock(block);
      expect(result.status).toBe('accepted');
      carried += block.transactions.length;
      if (round === 0) {
        // Full: the next transaction would not have fit.
        expect(blockEncodedBytes(block)).toBeGreaterThan(blockBytesMax - 430);
      }
    }
    expect(chain.blockCount()).toBe(startCount + 3);
    // The blocks carried the whole pool between them, the merging blocks accepted it, and it left the pool.
    expect(carried).toBe(txs.length);
    expect(mempool.pool.size).toBe(0);
    for (const key of senders) expect(ledger.account(addressOfKey(key)).nonce).toBe(BigInt(perSender));
  }, 60_000);
});
