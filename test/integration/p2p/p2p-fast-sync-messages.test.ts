// The fast-sync messages (getpruningproof/pruningproof, getsnapshotchunk/snapshotchunk, notfound for a state root or
// a proof) and the proof's wire form: round trips with one encoding each, and every bound refused with a ban score.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/codec/header.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { DecodeError } from '../../../src/errors.ts';
import { P2pErrorCode, P2pProtocolError } from '../../../src/p2p/errors.ts';
import {
  p2pPruningProofBytesMax,
  p2pPruningProofHeadersMax,
  p2pPruningProofLevelHeadersMax,
  p2pPruningProofLevelsMax,
  p2pPruningProofPageBytesMax,
} from '../../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, MessageType, messagePayloadBytesMax, type Message } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { p2pMessageBytesMax } from '../../../src/p2p/limits.ts';
import { decodePruningProof, encodePruningProof } from '../../../src/p2p/pruning-proof-codec.ts';
import { MessageOverCapError } from '../../../src/p2p/protocol-errors.ts';
import { snapshotChunkBytesMax } from '../../../src/state/snapshot-codec.ts';
import { readSnapshotChunk } from '../../../src/state/snapshot.ts';
import { seededSnapshotState } from '../../helpers/snapshot-fixtures.ts';

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const state = seededSnapshotState(60, 7);

/** A real chunk of a 60-leaf state, from any start key, of 1–9 leaves. */
const chunk = fc.record({ from: hash, entriesMax: fc.integer({ min: 1, max: 9 }) }).map(({ from, entriesMax }) => ({
  from,
  chunk: readSnapshotChunk(state.trie, state.root, from, { entriesMax }),
}));

const page = fc
  .record({ pages: fc.integer({ min: 1, max: 2 }), last: fc.integer({ min: 1, max: 200 }), at: fc.nat() })
  .map(({ pages, last, at }) => {
    const total = (pages - 1) * p2pPruningProofPageBytesMax + last;
    const index = at % pages;
    const length = index === pages - 1 ? last : p2pPruningProofPageBytesMax;
    return { total, offset: index * p2pPruningProofPageBytesMax, page: new Uint8Array(length).fill(index + 1) };
  });

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ pruningPoint: hash, offset: fc.integer({ min: 0, max: p2pPruningProofBytesMax }) }).map((m) => ({ type: 'getpruningproof' as const, ...m })),
  fc.record({ pruningPoint: hash, page }).map(({ pruningPoint, page }) => ({ type: 'pruningproof' as const, pruningPoint, ...page })),
  fc.record({ root: hash, from: hash, entriesMax: fc.integer({ min: 0, max: 8_192 }) }).map((m) => ({ type: 'getsnapshotchunk' as const, ...m })),
  chunk.map(({ from, chunk }) => ({ type: 'snapshotchunk' as const, root: state.root, from, chunk })),
  fc.array(fc.record({ kind: fc.constantFrom(InvType.stateRoot, InvType.pruningProof, InvType.block), hash }), { maxLength: 4 }).map((items) => ({ type: 'notfound' as const, items })),
);

/** Distinct headers: genesis with another nonce each. */
const headerPool: BlockHeader[] = Array.from({ length: 12 }, (_, i) => ({ ...regtestParams.genesis, nonce: BigInt(i + 1) }));
const proof = fc.array(fc.array(fc.integer({ min: 0, max: headerPool.length - 1 }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 20 })
  .map((levels) => ({ levels: levels.map((list) => list.map((i) => headerPool[i]!)) }));

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function codeOf(fn: () => unknown): number {
  const error = errorOf(fn);
  expect(error).toBeInstanceOf(P2pProtocolError);
  expect((error as P2pProtocolError).banScore).toBe(100);
  return (error as P2pProtocolError).code;
}

const varint = (value: number): number[] => {
  const out = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
};

describe('fast-sync messages', () => {
  it('round-trip with exactly one encoding', () => {
    fc.assert(
      fc.property(message, (m) => {
        const bytes = encodeMessage(m);
        const back = decodeMessage(bytes);
        // Full proof pages are 1 MiB: compared as buffers (an element-wise toEqual takes seconds each).
        if (m.type === 'pruningproof' && back.type === 'pruningproof') {
          expect(Buffer.from(back.page).equals(Buffer.from(m.page))).toBe(true);
          expect({ ...back, page: null }).toEqual({ ...m, page: null });
        } else {
          expect(back).toEqual(m);
        }
        expect(Buffer.from(encodeMessage(back)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('fit the largest proof page and the largest snapshot chunk in one session message', () => {
    expect(1 + messagePayloadBytesMax.pruningproof).toBeLessThanOrEqual(p2pMessageBytesMax);
    expect(1 + messagePayloadBytesMax.snapshotchunk).toBeLessThanOrEqual(p2pMessageBytesMax);
    expect(messagePayloadBytesMax.snapshotchunk).toBe(64 + snapshotChunkBytesMax);
  });

  it('refuse a proof page that is not cut at the fixed page size, or lies outside the total (malformed, ban 100)', () => {
    const point = new Uint8Array(32);
    const bad = (total: number, offset: number, length: number) =>
      Uint8Array.from([MessageType.pruningproof, ...point, ...varint(total), ...varint(offset), ...varint(length), ...new Uint8Array(length)]);
    expect(decodeMessage(bad(10, 0, 10))).toMatchObject({ type: 'pruningproof', total: 10 });
    expect(codeOf(() => decodeMessage(bad(10, 0, 9)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(bad(0, 0, 0)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(bad(p2pPruningProofPageBytesMax + 5, 5, 10)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(bad(p2pPruningProofPageBytesMax + 5, p2pPruningProofPageBytesMax, 4)))).toBe(P2pErrorCode.MessageMalformed);
    const overTotal = Uint8Array.from([MessageType.pruningproof, ...point, ...varint(p2pPruningProofBytesMax + 1), 0, 1, 0]);
    expect(codeOf(() => decodeMessage(overTotal))).toBe(P2pErrorCode.MessageOverCap);
    expect(() => encodeMessage({ type: 'pruningproof', pruningPoint: point, total: 10, offset: 0, page: new Uint8Array(3) })).toThrow(/proof page/);
  });

  it('refuse a snapshot chunk that does not decode, or asks for more leaves than a chunk holds', () => {
    const { from, chunk: c } = { from: new Uint8Array(32), chunk: readSnapshotChunk(state.trie, state.root, new Uint8Array(32), { entriesMax: 3 }) };
    const good = encodeMessage({ type: 'snapshotchunk', root: state.root, from, chunk: c });
    expect(codeOf(() => decodeMessage(good.subarray(0, good.length - 1)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(Uint8Array.from([...good, 0])))).toBe(P2pErrorCode.MessageMalformed);
    const flags = good.slice();
    flags[65] = 2; // the chunk's flags byte: only bit 0 is defined
    expect(codeOf(() => decodeMessage(flags))).toBe(P2pErrorCode.MessageMalformed);
    const request = Uint8Array.from([MessageType.getsnapshotchunk, ...state.root, ...from, ...varint(8_193)]);
    expect(codeOf(() => decodeMessage(request))).toBe(P2pErrorCode.MessageOverCap);
    const tooBig = new Uint8Array(2 + messagePayloadBytesMax.snapshotchunk);
    tooBig[0] = MessageType.snapshotchunk;
    expect(codeOf(() => decodeMessage(tooBig))).toBe(P2pErrorCode.MessageOverCap);
  });

  it('allow the state-root, proof and trusted-data inventory kinds in notfound only', () => {
    for (const type of [MessageType.inv, MessageType.getdata]) {
      for (const kind of [InvType.stateRoot, InvType.pruningProof, InvType.trustedData]) {
        expect(codeOf(() => decodeMessage(Uint8Array.from([type, 1, kind, ...new Uint8Array(32)])))).toBe(P2pErrorCode.MessageMalformed);
      }
    }
    expect(codeOf(() => decodeMessage(Uint8Array.from([MessageType.notfound, 1, 6, ...new Uint8Array(32)])))).toBe(P2pErrorCode.MessageMalformed);
  });
});

describe('pruning proof wire form', () => {
  it('round-trips, sending each distinct header once, in one encoding', () => {
    fc.assert(
      fc.property(proof, (p) => {
        const bytes = encodePruningProof(p);
        const back = decodePruningProof(bytes);
        expect(back).toEqual(p);
        expect(encodePruningProof(back)).toEqual(bytes);
        const distinct = new Set(p.levels.flat()).size;
        expect(bytes[0]).toBe(distinct);
      }),
      { numRuns: 100 },
    );
  });

  it('shares headers between levels: 256 identical levels of 10 headers cost one table', () => {
    const level = headerPool.slice(0, 10);
    const bytes = encodePruningProof({ levels: Array.from({ length: 256 }, () => level) });
    const one = encodePruningProof({ levels: [level] });
    expect(bytes.length - one.length).toBe(255 * 11 + 1); // per extra level: a count and ten one-byte indices; +1 for the level count's second byte
  });

  it('refuses a table out of order of first use, an unused or repeated header, and trailing bytes', () => {
    const good = encodePruningProof({ levels: [[headerPool[0]!, headerPool[1]!]] });
    const headerBytes = (good.length - 5) / 2; // count, two headers, level count, list length, two indices
    const table = good.subarray(1, 1 + 2 * headerBytes);
    const withLists = (count: number, rows: number[][], tbl: Uint8Array = table) =>
      Uint8Array.from([count, ...tbl, rows.length, ...rows.flatMap((r) => [r.length, ...r])]);
    expect(decodePruningProof(withLists(2, [[0, 1]]))).toEqual({ levels: [[headerPool[0], headerPool[1]]] });
    expect(errorOf(() => decodePruningProof(withLists(2, [[1, 0]])))).toBeInstanceOf(DecodeError);
    expect(errorOf(() => decodePruningProof(withLists(2, [[0, 0]])))).toBeInstanceOf(DecodeError);
    expect(errorOf(() => decodePruningProof(withLists(2, [[0, 2]])))).toBeInstanceOf(DecodeError);
    const twice = Uint8Array.from([...table.subarray(0, headerBytes), ...table.subarray(0, headerBytes)]);
    expect(errorOf(() => decodePruningProof(withLists(2, [[0, 1]], twice)))).toBeInstanceOf(DecodeError);
    expect(errorOf(() => decodePruningProof(Uint8Array.from([...good, 0])))).toBeInstanceOf(DecodeError);
  });

  it('bounds headers, levels and level lengths before reading them', () => {
    const over = (...bytes: number[]) => errorOf(() => decodePruningProof(Uint8Array.from(bytes)));
    expect(over(...varint(p2pPruningProofHeadersMax + 1))).toBeInstanceOf(MessageOverCapError);
    expect(over(0, ...varint(p2pPruningProofLevelsMax + 1))).toBeInstanceOf(MessageOverCapError);
    expect(over(0, 1, ...varint(p2pPruningProofLevelHeadersMax + 1))).toBeInstanceOf(MessageOverCapError);
    expect(() => encodePruningProof({ levels: Array.from({ length: p2pPruningProofLevelsMax + 1 }, () => [headerPool[0]!]) })).toThrow(MessageOverCapError);
  });
});
