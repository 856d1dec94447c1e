// Fixtures for joining at a pruning point (docs/pruning-proof.md "Trusted data"): a regtest DAG with transfers, side
// blocks and several pruning windows, fed to an archive and a pruned node; the pruning point's state copied chunk by
// chunk (each verified against the header's state root) into the joining node's store.
import { expect } from 'vitest';
import type { Chain } from '../../src/chain/chain.ts';
import type { Block } from '../../src/codec/block.ts';
import type { BlockId } from '../../src/consensus/ghostdag.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { blockHash } from '../../src/consensus/pow.ts';
import { ledgerKeys } from '../../src/state/ledger-rows.ts';
import { openLedgerChain, type Ledger } from '../../src/state/ledger.ts';
import { readSnapshotChunk } from '../../src/state/snapshot.ts';
import { createSnapshotImport } from '../../src/state/snapshot-import.ts';
import { createStateTrie } from '../../src/state/trie.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { toHex } from '../../src/util/bytes.ts';
import { joinClock, joinParams } from './trusted-params.ts';

export { joinClock, joinParams, trustedFromJson, trustedToJson } from './trusted-params.ts';
import { makeBlock } from './chain-fixtures.ts';
import { transfer, wallet } from './ledger-fixtures.ts';

export const joinMiner = wallet(0);
export const joinPayees = [1, 2, 3, 4, 5].map((i) => wallet(i).address);
/** Sends from side blocks (a payee of the main ones: it has funds once paid). */
export const joinSibling = wallet(1);

export interface SourceNode {
  readonly chain: Chain;
  readonly ledger: Ledger;
  readonly store: KvStore;
}

export async function openSource(archive: boolean, store: KvStore = createMemoryStore(), params: NetworkParams = joinParams): Promise<SourceNode> {
  const { chain, ledger } = await openLedgerChain({ params, store, clock: joinClock(), archive });
  return { chain, ledger, store };
}

/** Blocks built on `source`: a transfer in most, a pair of siblings in three rounds of four (merged by the next block). */
export async function buildSourceBlocks(source: SourceNode, rounds: number, sender = { nonce: 0n, siblingNonce: 0n }): Promise<Block[]> {
  const blocks: Block[] = [];
  for (let round = 0; round < rounds; round++) {
    const parents = source.chain.tips().map((t) => t.id);
    const pay = source.chain.selectedTip().height > 3 && round % 4 !== 3;
    const transactions = pay ? [transfer(joinMiner, joinPayees[round % joinPayees.length]!, 1_000n + BigInt(round), sender.nonce++)] : [];
    const first = makeBlock(source.chain, { parents, transactions, miner: joinMiner.address });
    // Siblings carry a transfer of their own sender's, so the pruning point's anticone has transactions to accept.
    const siblingTxs = round > 8 ? [transfer(joinSibling, joinMiner.address, 10n, sender.siblingNonce++)] : [];
    const sibling = round % 4 !== 0 ? makeBlock(source.chain, { parents, miner: joinPayees[1]!, timestampMs: first.header.timestampMs + 1, transactions: siblingTxs }) : undefined;
    for (const block of sibling ? [first, sibling] : [first]) {
      expect((await source.chain.addBlock(block)).status).toBe('accepted');
      blocks.push(block);
    }
  }
  await source.chain.settled();
  return blocks;
}

export async function feedAll(chain: Chain, blocks: readonly Block[]): Promise<void> {
  for (const block of blocks) expect((await chain.addBlock(block)).status).toBe('accepted');
  await chain.settled();
  await chain.pruningSettled();
}

/** Copies the state at `root` from `source`'s trie into `target`, chunk by chunk, each verified on import. */
export async function copyState(source: KvStore, target: KvStore, root: Uint8Array): Promise<number> {
  const trie = createStateTrie({ store: source, prefix: ledgerKeys.trieprefix });
  const imported = createSnapshotImport({ store: target, prefix: ledgerKeys.trieprefix, root });
  let chunks = 0;
  while (imported.nextKey !== undefined) {
    await imported.apply(readSnapshotChunk(trie, root, imported.nextKey, { entriesMax: 3 }));
    chunks++;
  }
  await imported.finish();
  return chunks;
}

/** The source's blocks a joined chain is fed: those not in the pruning point's past, nor it, nor its trusted anticone. */
export function blocksAbove(source: Chain, blocks: readonly Block[], point: BlockId, trusted: ReadonlySet<BlockId>): Block[] {
  return blocks.filter((b) => {
    const id = toHex(blockHash(b.header));
    return !trusted.has(id) && id !== point && !source.engine.isDagAncestorOf(id, point);
  });
}
