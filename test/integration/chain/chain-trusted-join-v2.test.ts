// Joining at a pruning point on a version 2 network (docs/pruning-proof.md "Header version 2", "Trusted data"): the
// level parents of the blocks above the point name blocks far below the trusted set at high levels (genesis among
// them), so the joined chain keeps the verified proof's headers as header rows and decides their ancestry by walking
// level parents (test/integration/chain/chain-level-parents.test.ts checks that walk against reachability). Fed every block above the
// point, and then blocks mined past more pruning-point moves, it keeps the source's tip, state root and point.
import { describe, expect, it } from 'vitest';
import { buildTrustedData } from '../../../src/chain/trusted-data.ts';
import type { BlockHeader } from '../../../src/codec/header.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { buildPruningProof } from '../../../src/pruning-proof/build-proof.ts';
import { proofParamsOf } from '../../../src/pruning-proof/level-dag.ts';
import { verifyPruningProof } from '../../../src/pruning-proof/verify-proof.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { blocksAbove, buildSourceBlocks, copyState, joinClock, joinParams, openSource } from '../../helpers/trusted-fixtures.ts';

// A pruning window (pruningDepth + finalityDepth = 72) well above the trusted depth (the DAA window, 30): just above the
// join a block's pruning point reads chain blocks the joined chain does not hold, as on every real network.
const params: NetworkParams = Object.freeze({ ...joinParams, headerVersion: 2, pruningProofM: 8, pruningDepth: 60 });

async function joinedChain(source: Awaited<ReturnType<typeof openSource>>, point: string, proofHeaders: readonly BlockHeader[] | undefined) {
  const trusted = buildTrustedData(source.chain, point);
  const store = createMemoryStore();
  await copyState(source.store, store, source.chain.get(point)!.header.stateRoot);
  const { chain } = await openLedgerChain({ params, store, clock: joinClock(), join: trusted, ...(proofHeaders ? { joinProofHeaders: proofHeaders } : {}) });
  return { chain, trusted };
}

describe('a version 2 chain joined at its pruning point', () => {
  it('keeps the proof headers and accepts every block above the point, ending at the source tip and state', async () => {
    const source = await openSource(false, createMemoryStore(), params);
    const sender = { nonce: 0n, siblingNonce: 0n };
    const blocks = await buildSourceBlocks(source, 90, sender);
    await source.chain.pruningSettled();
    const point = source.chain.pruning()!.pruningPoint;
    expect(point.header.blueScore).toBeGreaterThan(params.pruningDepth);
    expect(point.header.version).toBe(2);

    const proof = buildPruningProof({ header: (id) => source.chain.get(id)?.header }, point.id, proofParamsOf(params));
    const verified = verifyPruningProof(proof, proofParamsOf(params));
    expect(verified.pruningPointId).toBe(point.id);
    const proofHeaders = [...new Map(proof.levels.flat().map((h) => [toHex(blockHash(h)), h])).values()];

    const { chain, trusted } = await joinedChain(source, point.id, proofHeaders);
    const trustedIds = new Set(trusted.blocks.map((b) => toHex(blockHash(b.header))));
    const above = blocksAbove(source.chain, blocks, point.id, trustedIds);
    expect(above.length).toBeGreaterThan(20);
    for (const block of above) {
      const result = await chain.addBlock(block);
      expect(result.status, toHex(blockHash(block.header))).toBe('accepted');
    }
    await chain.settled();
    expect(chain.selectedTip().id).toBe(source.chain.selectedTip().id);
    expect(toHex(chain.selectedTip().header.stateRoot)).toBe(toHex(source.chain.selectedTip().header.stateRoot));

    // It goes on: blocks mined after the join, past more pruning-point moves, keep agreeing with the source.
    const later = await buildSourceBlocks(source, 60, sender);
    for (const block of later) expect((await chain.addBlock(block)).status).toBe('accepted');
    await chain.settled();
    await chain.pruningSettled();
    expect(chain.selectedTip().id).toBe(source.chain.selectedTip().id);
    expect(chain.pruning()!.pruningPoint.id).toBe(source.chain.pruning()!.pruningPoint.id);
    expect(chain.pruning()!.pruningPoint.header.blueScore).toBeGreaterThan(point.header.blueScore);
  }, 60_000);
});
