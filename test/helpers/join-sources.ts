// Sources for joining tests over the in-process memory net (docs/pruning-proof.md "Serving and joining"): version 2
// regtest chains with rules v2 (consensus totals under the state root), served as fast-sync ports — an honest chain
// and a cheap fabricated one forked at genesis with fewer blocks — and a joiner that opens the chain it joined.
import { buildTrustedData, type TrustedData } from '../../src/chain/trusted-data.ts';
import type { Block } from '../../src/codec/block.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { asWitnessVerifier, type WitnessVerifier } from '../../src/crypto/witness-check.ts';
import { nobleVerifier } from '../../src/crypto/verifier.ts';
import type { FastSyncPorts } from '../../src/p2p/fast-sync.ts';
import { buildPruningProof } from '../../src/pruning-proof/build-proof.ts';
import { proofParamsOf } from '../../src/pruning-proof/level-dag.ts';
import type { PruningProof } from '../../src/pruning-proof/pruning-proof.ts';
import { ledgerKeys } from '../../src/state/ledger-rows.ts';
import { readSnapshotChunk } from '../../src/state/snapshot.ts';
import { createStateTrie } from '../../src/state/trie.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { makeBlock } from './chain-fixtures.ts';
import { wallet } from './ledger-fixtures.ts';
import { buildSourceBlocks, joinParams, openSource, type SourceNode } from './trusted-fixtures.ts';

// A DAA window (8) shorter than a proof's level-0 stretch (about 2M = 16 chain headers): the proof's bits are checkable.
export const joinV2Params: NetworkParams = Object.freeze({ ...joinParams, headerVersion: 2, pruningProofM: 8, pruningDepth: 60, daaWindowBlocks: 8, activations: { ...joinParams.activations, rulesV2: 0 } });
/** What a chain checks bodies with by default (src/chain/chain.ts). */
export const nobleProofVerifier: WitnessVerifier = asWitnessVerifier(nobleVerifier) as WitnessVerifier;

export interface ServedSource extends SourceNode {
  readonly blocks: Block[];
  readonly point: string;
  readonly proof: PruningProof;
  readonly trusted: TrustedData;
}

/** The honest chain: transfers, side blocks, a pruning point well above genesis. */
export async function honestSource(rounds: number, params: NetworkParams = joinV2Params): Promise<ServedSource> {
  const source = await openSource(false, createMemoryStore(), params);
  const blocks = await buildSourceBlocks(source, rounds);
  return served(source, blocks);
}

/** A fabricated chain forked at genesis: one block a round by another miner, no transactions. */
export async function cheapSource(rounds: number): Promise<ServedSource> {
  const source = await openSource(false, createMemoryStore(), joinV2Params);
  const blocks: Block[] = [];
  for (let i = 0; i < rounds; i++) {
    const block = makeBlock(source.chain, { miner: wallet(9).address });
    await source.chain.addBlock(block);
    blocks.push(block);
  }
  await source.chain.settled();
  return served(source, blocks);
}

async function served(source: SourceNode, blocks: Block[]): Promise<ServedSource> {
  await source.chain.pruningSettled();
  const point = source.chain.pruning()!.pruningPoint.id;
  const proof = buildPruningProof({ header: (id) => source.chain.get(id)?.header }, point, proofParamsOf(source.chain.params));
  return { ...source, blocks, point, proof, trusted: buildTrustedData(source.chain, point) };
}

/** What a peer serving `source` answers; `overrides` replace parts (a delay, a lie). */
export function portsOf(source: ServedSource, overrides: Partial<FastSyncPorts> = {}): FastSyncPorts {
  const trie = createStateTrie({ store: source.store, prefix: ledgerKeys.trieprefix });
  return {
    pruningProof: async () => source.proof,
    trustedData: async () => source.trusted,
    snapshotChunk: async (root, from, limits) => readSnapshotChunk(trie, root, from, limits),
    ...overrides,
  };
}
