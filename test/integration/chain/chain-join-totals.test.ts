// A joiner takes nothing a header does not commit to (issue 30, docs/state.md "Consensus totals"): trusted data whose
// acceptance record says `emitted = the supply cap` beside an honest proof, honest blocks and honest state. Under
// version 1 rules (regtest's default: what the landed code does) the joined chain clamps every subsidy to 0 and
// refuses the honest blocks above the point with body.state-root.mismatch; under rules v2 the totals live in the
// state trie under the committed root, the lying record is refused before anything is written, and an honest join
// keeps only what the verified state commits to.
import { describe, expect, it } from 'vitest';
import { buildTrustedData, type TrustedData } from '../../../src/chain/trusted-data.ts';
import { TrustedDataError } from '../../../src/chain/trusted-errors.ts';
import type { Block } from '../../../src/codec/block.ts';
import { emissionCapUnits } from '../../../src/consensus/emission.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { decodeAcceptanceRecord, encodeAcceptanceRecord } from '../../../src/state/acceptance-record.ts';
import { consensusTotalsKey, decodeConsensusTotals } from '../../../src/state/consensus-totals.ts';
import { ledgerKeys } from '../../../src/state/ledger-rows.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { createStateTrie } from '../../../src/state/trie.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { blocksAbove, buildSourceBlocks, copyState, joinClock, joinParams, openSource, type SourceNode } from '../../helpers/trusted-fixtures.ts';

const v1: NetworkParams = joinParams;
const v2: NetworkParams = Object.freeze({ ...joinParams, activations: { ...joinParams.activations, rulesV2: 0 } });

async function sourceAt(params: NetworkParams): Promise<{ source: SourceNode; blocks: Block[]; point: string; trusted: TrustedData }> {
  const source = await openSource(false, createMemoryStore(), params);
  const blocks = await buildSourceBlocks(source, 60);
  await source.chain.pruningSettled();
  const point = source.chain.pruning()!.pruningPoint.id;
  return { source, blocks, point, trusted: buildTrustedData(source.chain, point) };
}

/** The honest trusted data with its acceptance record saying the whole supply is already emitted. */
function cappedRecord(trusted: TrustedData): TrustedData {
  const record = decodeAcceptanceRecord(trusted.stateRecord!);
  return { ...trusted, stateRecord: encodeAcceptanceRecord({ ...record, emitted: emissionCapUnits }) };
}

async function join(params: NetworkParams, source: SourceNode, point: string, trusted: TrustedData) {
  const store = createMemoryStore();
  await copyState(source.store, store, source.chain.get(point)!.header.stateRoot);
  return { store, ...(await openLedgerChain({ params, store, clock: joinClock(), join: trusted })) };
}

describe('the totals a joiner starts from', () => {
  it('under version 1 rules come from the peer unproven: emitted = cap makes the joined node refuse honest blocks', async () => {
    const { source, blocks, point, trusted } = await sourceAt(v1);
    const { chain, ledger } = await join(v1, source, point, cappedRecord(trusted));
    expect(ledger.supply().circulatingUnits).toBe(emissionCapUnits);
    const above = blocksAbove(source.chain, blocks, point, new Set(trusted.blocks.map((b) => toHex(blockHash(b.header)))));
    expect(above.length).toBeGreaterThan(0);
    // The first honest block above the point pays a subsidy the joined node clamps to 0: a different state root.
    await expect(chain.addBlock(above[0]!)).rejects.toMatchObject({ rule: 'body.state-root.mismatch' });
    // Version 1 states hold no totals: nothing under the root could have told the joiner otherwise.
    const trie = createStateTrie({ store: source.store, prefix: ledgerKeys.trieprefix });
    expect(trie.get(source.chain.get(point)!.header.stateRoot, consensusTotalsKey)).toBeUndefined();
  }, 60_000);

  it('under rules v2 are committed by the state root: the lying record is refused, an honest join keeps the committed totals', async () => {
    const { source, blocks, point, trusted } = await sourceAt(v2);
    const trie = createStateTrie({ store: source.store, prefix: ledgerKeys.trieprefix });
    const committed = decodeConsensusTotals(trie.get(source.chain.get(point)!.header.stateRoot, consensusTotalsKey)!);
    expect(committed).toMatchObject({ emitted: decodeAcceptanceRecord(trusted.stateRecord!).emitted, acceptedTotal: decodeAcceptanceRecord(trusted.stateRecord!).acceptedTotal });
    expect(committed.emitted).toBeGreaterThan(0n);

    const refusal = await join(v2, source, point, cappedRecord(trusted)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TrustedDataError);
    expect(refusal).toMatchObject({ reason: 'state-record', peerFault: true });
    expect(String((refusal as Error).message)).toMatch(/contradict/);

    // The per-merged-block part of a record is proven by nothing: a joiner keeps the committed totals alone.
    const honestTotalsOtherMerged: TrustedData = { ...trusted, stateRecord: encodeAcceptanceRecord({ ...decodeAcceptanceRecord(trusted.stateRecord!), merged: [] }) };
    const { chain, ledger } = await join(v2, source, point, honestTotalsOtherMerged);
    expect(ledger.acceptanceOf(point)).toEqual({ ...committed, merged: [] });
    const above = blocksAbove(source.chain, blocks, point, new Set(trusted.blocks.map((b) => toHex(blockHash(b.header)))));
    for (const block of above) expect((await chain.addBlock(block)).status).toBe('accepted');
    await chain.settled();
    expect(chain.selectedTip().id).toBe(source.chain.selectedTip().id);
    expect(toHex(chain.selectedTip().header.stateRoot)).toBe(toHex(source.chain.selectedTip().header.stateRoot));
    expect(ledger.supply()).toEqual(source.ledger.supply());
  }, 60_000);
});
