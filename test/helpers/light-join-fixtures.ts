// A version 2 chain several pruning windows long, and what a tab joins from: the proof of the pruning point its tip
// commits to (buildPruningProof over the chain's headers) and the trusted data of that point (buildTrustedData).
import { expect } from 'vitest';
import type { Chain } from '../../src/chain/chain.ts';
import { buildTrustedData, type TrustedData } from '../../src/chain/trusted-data.ts';
import type { BlockHeader } from '../../src/codec/header.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { blockHash } from '../../src/consensus/pow.ts';
import { buildPruningProof } from '../../src/pruning-proof/build-proof.ts';
import { proofParamsOf } from '../../src/pruning-proof/level-dag.ts';
import type { PruningProof } from '../../src/pruning-proof/pruning-proof.ts';
import { openLedgerChain, type Ledger } from '../../src/state/ledger.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { toHex } from '../../src/util/bytes.ts';
import { createManualClock, type Clock } from '../../src/util/clock.ts';
import { easyParams, makeBlock } from './chain-fixtures.ts';

/** Devnet's rules at the pow limit, with pruning windows of 36 blue score, a DAA window of 30 and proofs of M = 10. */
export const tabParams: NetworkParams = easyParams({ finalityDepth: 12, mergeDepth: 6, pruningDepth: 24, daaWindowBlocks: 30, pruningProofM: 10 });
export const tabClock = (): Clock => createManualClock(tabParams.genesis.timestampMs + 100_000_000);

export interface TabSource {
  readonly chain: Chain;
  /** The chain's ledger: account proofs against its headers. */
  readonly ledger: Ledger;
  /** Every header, in the order the chain accepted them. */
  readonly headers: BlockHeader[];
}

const sideMiner = Uint8Array.from({ length: 33 }, (_, j) => (j === 0 ? 0 : 7));

/**
 * `rounds` rounds on `source` (or a fresh archive chain): mostly a chain, a pair of siblings every fourth round.
 * Another `miner` gives a fork of other blocks (the blocks are otherwise deterministic).
 */
export async function extendTabChain(rounds: number, source?: TabSource, params: NetworkParams = tabParams, miner?: Uint8Array): Promise<TabSource> {
  const { chain, ledger } = source ?? (await openLedgerChain({ params, store: createMemoryStore(), clock: tabClock(), archive: true }));
  const headers = source?.headers ?? [];
  for (let i = 0; i < rounds; i++) {
    const tips = chain.tips().map((t) => t.id);
    const blocks = i % 4 === 3 ? [makeBlock(chain, { parents: tips, ...(miner ? { miner } : {}) }), makeBlock(chain, { parents: tips, miner: sideMiner })] : [makeBlock(chain, { parents: tips, ...(miner ? { miner } : {}) })];
    for (const block of blocks) {
      expect((await chain.addBlock(block)).status).toBe('accepted');
      headers.push(block.header);
    }
  }
  await chain.settled();
  return { chain, ledger, headers };
}

/** The pruning point the chain's tip commits to. */
export function tipPruningPoint(chain: Chain): string {
  return toHex(chain.selectedTip().header.pruningPoint!);
}

export function proofAt(chain: Chain, point: string): PruningProof {
  return buildPruningProof({ header: (id) => chain.get(id)?.header }, point, proofParamsOf(chain.params));
}

export function trustedAt(chain: Chain, point: string): TrustedData {
  return buildTrustedData(chain, point);
}

/** The headers a chain joined at `point` is fed: neither in the point's past nor the point, in accepted order. */
export function headersAbove(source: TabSource, point: string): BlockHeader[] {
  return source.headers.filter((h) => {
    const id = toHex(blockHash(h));
    return id !== point && !source.chain.engine.isDagAncestorOf(id, point);
  });
}
