// Trusted data on the wire (issue 19, docs/pruning-proof.md "Serving and joining"): the codec round-trips real trusted
// data (a pruned node's set with bodies, GHOSTDAG data and the ledger's record) and arbitrary sets, with one encoding
// each; the gettrusteddata/trusteddata messages are paged like the proof; every bound and non-canonical form is refused.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrustedData, type TrustedBlock, type TrustedData } from '../../../src/chain/trusted-data.ts';
import { checkTrustedData } from '../../../src/chain/trusted-check.ts';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { asWitnessVerifier, type WitnessVerifier } from '../../../src/crypto/witness-check.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { DecodeError } from '../../../src/errors.ts';
import { P2pErrorCode } from '../../../src/p2p/errors.ts';
import { p2pPruningProofPageBytesMax, p2pTrustedDataBlocksMax, p2pTrustedDataBytesMax, p2pTrustedMergesetIdsMax } from '../../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, type Message } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { MessageOverCapError } from '../../../src/p2p/protocol-errors.ts';
import { decodeTrustedData, encodeTrustedData } from '../../../src/p2p/trusted-data-codec.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { buildSourceBlocks, feedAll, joinClock, joinParams, openSource } from '../../helpers/trusted-fixtures.ts';

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const id = hash.map(toHex);
const headerPool: BlockHeader[] = Array.from({ length: 8 }, (_, i) => ({ ...regtestParams.genesis, nonce: BigInt(i + 1), blueScore: i * 3, blueWork: BigInt(i) << 70n }));

const block: fc.Arbitrary<TrustedBlock> = fc
  .record({
    header: fc.constantFrom(...headerPool),
    height: fc.nat(),
    selectedParent: fc.option(id, { nil: null }),
    mergesetBlues: fc.array(id, { maxLength: 4 }),
    mergesetReds: fc.array(id, { maxLength: 3 }),
    sizes: fc.uniqueArray(fc.tuple(id, fc.nat(30)), { maxLength: 4, selector: ([k]) => k }),
    transactions: fc.option(fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 3 }), { nil: undefined }),
  })
  .map(({ header, height, selectedParent, mergesetBlues, mergesetReds, sizes, transactions }) => ({
    header,
    height,
    ghostdag: { selectedParent, blueScore: header.blueScore, blueWork: header.blueWork, mergesetBlues, mergesetReds, bluesAnticoneSizes: new Map(sizes) },
    ...(transactions ? { transactions } : {}),
  }));

const trusted: fc.Arbitrary<TrustedData> = fc
  .record({ pruningPoint: hash, blocks: fc.array(block, { minLength: 1, maxLength: 6 }), stateRecord: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }) })
  .map(({ stateRecord, ...rest }) => ({ ...rest, ...(stateRecord ? { stateRecord } : {}) }));

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

let real: TrustedData;

beforeAll(async () => {
  const archive = await openSource(true);
  const pruned = await openSource(false);
  await feedAll(pruned.chain, await buildSourceBlocks(archive, 45));
  real = buildTrustedData(pruned.chain, pruned.chain.pruning()!.pruningPoint.id);
}, 60_000);

describe('the trusted-data codec', () => {
  it("round-trips a pruned node's real trusted data, which still passes every check after decoding", () => {
    expect(real.blocks.some((b) => b.transactions !== undefined)).toBe(true);
    expect(real.blocks.some((b) => b.transactions === undefined)).toBe(true);
    const bytes = encodeTrustedData(real);
    const decoded = decodeTrustedData(bytes);
    expect(decoded).toEqual(real);
    expect(encodeTrustedData(decoded)).toEqual(bytes);
    const checked = checkTrustedData(joinParams, decoded, real.pruningPoint, joinClock().nowMs(), asWitnessVerifier(nobleVerifier) as WitnessVerifier);
    expect(checked.blocks.length).toBe(real.blocks.length);
  });

  it('round-trips arbitrary sets with one encoding each', () => {
    fc.assert(
      fc.property(trusted, (data) => {
        const bytes = encodeTrustedData(data);
        const decoded = decodeTrustedData(bytes);
        expect(decoded).toEqual(data);
        expect(encodeTrustedData(decoded)).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses every truncation and every extra byte', () => {
    fc.assert(
      fc.property(trusted, fc.nat(), (data, cut) => {
        const bytes = encodeTrustedData(data);
        expect(errorOf(() => decodeTrustedData(bytes.subarray(0, cut % bytes.length)))).toBeInstanceOf(DecodeError);
        expect(errorOf(() => decodeTrustedData(Uint8Array.of(...bytes, 0)))).toBeInstanceOf(DecodeError);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses flags other than 0 and 1, an empty set, and an anticone size given twice', () => {
    const one: TrustedData = { pruningPoint: new Uint8Array(32), blocks: [real.blocks[0]!] };
    const bytes = encodeTrustedData(one);
    const badKind = bytes.slice();
    badKind[33] = 2; // the first block's kind, after the point and a one-byte count
    expect(errorOf(() => decodeTrustedData(badKind))).toBeInstanceOf(DecodeError);
    const empty = Uint8Array.of(...new Uint8Array(32), 0, 0);
    expect(String(errorOf(() => decodeTrustedData(empty)))).toMatch(/at least one block/);
    const a = 'ab'.repeat(32);
    const twice = encodeTrustedData({ ...one, blocks: [{ ...one.blocks[0]!, ghostdag: { ...one.blocks[0]!.ghostdag, bluesAnticoneSizes: new Map([[a, 1]]) } }] });
    // Duplicate the single (id, size) entry by rewriting its count to 2 and appending it again.
    const entry = twice.subarray(twice.length - 1 - 33, twice.length - 1);
    const countAt = twice.length - 1 - 33 - 1;
    const dup = Uint8Array.of(...twice.subarray(0, countAt), 2, ...entry, ...entry, 0);
    expect(String(errorOf(() => decodeTrustedData(dup)))).toMatch(/given twice/);
  });

  it('bounds the block count, the mergeset lists and the size before reading them (over-cap: ban 100)', () => {
    const overCount = Uint8Array.of(...new Uint8Array(32), ...varint(p2pTrustedDataBlocksMax + 1));
    const e1 = errorOf(() => decodeTrustedData(overCount));
    expect(e1).toBeInstanceOf(MessageOverCapError);
    expect((e1 as MessageOverCapError).banScore).toBe(100);
    const ids = Array.from({ length: p2pTrustedMergesetIdsMax + 1 }, (_, i) => i.toString(16).padStart(64, '0'));
    const wide = { ...real.blocks[0]!, ghostdag: { ...real.blocks[0]!.ghostdag, mergesetReds: ids } };
    expect(errorOf(() => encodeTrustedData({ pruningPoint: real.pruningPoint, blocks: [wide] }))).toBeInstanceOf(MessageOverCapError);
    expect(errorOf(() => decodeTrustedData(new Uint8Array(p2pTrustedDataBytesMax + 1)))).toBeInstanceOf(MessageOverCapError);
  });
});

describe('gettrusteddata and trusteddata', () => {
  it('round-trip, paged like the proof, and notfound names a trusted-data inventory item', () => {
    const bytes = encodeTrustedData(real);
    const messages: Message[] = [
      { type: 'gettrusteddata', pruningPoint: real.pruningPoint, offset: 0 },
      { type: 'trusteddata', pruningPoint: real.pruningPoint, total: bytes.length, offset: 0, page: bytes },
      { type: 'notfound', items: [{ kind: InvType.trustedData, hash: real.pruningPoint }] },
    ];
    for (const m of messages) expect(decodeMessage(encodeMessage(m))).toEqual(m);
  });

  it('refuses a page that is not cut at the fixed page size', () => {
    const total = p2pPruningProofPageBytesMax + 10;
    const short: Message = { type: 'trusteddata', pruningPoint: real.pruningPoint, total, offset: 0, page: new Uint8Array(10) };
    expect(() => encodeMessage(short)).toThrow(/page/);
    const good = encodeMessage({ type: 'trusteddata', pruningPoint: real.pruningPoint, total: 10, offset: 0, page: new Uint8Array(10) });
    // Rewrite total 10 → 11: the 10-byte page is now not the whole last page.
    const bad = good.slice();
    bad[1 + 32] = 11;
    const error = errorOf(() => decodeMessage(bad));
    expect((error as { code?: number }).code).toBe(P2pErrorCode.MessageMalformed);
  });
});

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
