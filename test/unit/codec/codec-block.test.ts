import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createByteWriter, EncodeError } from '../../../src/codec/bytes-writer.ts';
import { decodeBlock, encodeBlock, transactionsRoot, type Block } from '../../../src/codec/block.ts';
import { emptyMerkleRoot, merkleRoot } from '../../../src/codec/merkle.ts';
import { encodeHeader, writeHeader, type BlockHeader } from '../../../src/codec/header.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { DecodeError } from '../../../src/errors.ts';
import { blockBytesMax, blockTxCountMax, txBytesMax } from '../../../src/limits.ts';
import { concatBytes, toHex } from '../../../src/util/bytes.ts';

const header: BlockHeader = {
  version: 1,
  parents: [new Uint8Array(32).fill(1)],
  txRoot: new Uint8Array(32),
  stateRoot: new Uint8Array(32),
  timestampMs: 1_767_225_600_000,
  bits: 0x1f008000,
  daaScore: 1,
  blueScore: 1,
  blueWork: 131072n,
  miner: new Uint8Array(33),
  gpuMining: false,
  nonce: 5n,
};

/** RFC 6962 §2.1 MTH, written recursively as the RFC states it, with BLAKE3 and the 0x00/0x01 prefixes. */
function rfc6962Root(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return blake3(new Uint8Array(0));
  if (leaves.length === 1) return blake3(concatBytes(Uint8Array.of(0), leaves[0]!));
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return blake3(concatBytes(Uint8Array.of(1), rfc6962Root(leaves.slice(0, k)), rfc6962Root(leaves.slice(k))));
}

const leaf = (i: number): Uint8Array => blake3(Uint8Array.of(i & 0xff, i >> 8));

describe('block codec', () => {
  it('round-trips blocks with any transactions', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { maxLength: 20 }), (transactions) => {
        const block: Block = { header, transactions };
        const bytes = encodeBlock(block);
        expect(decodeBlock(bytes)).toEqual(block);
        expect(encodeBlock(decodeBlock(bytes))).toEqual(bytes);
      }),
    );
  });

  it('is the header, a varint count and length-prefixed transactions', () => {
    const bytes = encodeBlock({ header, transactions: [Uint8Array.of(7, 8), new Uint8Array(200).fill(9)] });
    const h = encodeHeader(header);
    expect(toHex(bytes)).toBe(toHex(h) + '02' + '02' + '0708' + 'c801' + '09'.repeat(200));
  });

  it('refuses trailing bytes, truncation and empty transactions', () => {
    const bytes = encodeBlock({ header, transactions: [Uint8Array.of(1)] });
    expect(() => decodeBlock(concatBytes(bytes, Uint8Array.of(0)))).toThrow(/block: expected end of input/);
    expect(() => decodeBlock(bytes.subarray(0, bytes.length - 1))).toThrow(DecodeError);
    const w = createByteWriter();
    writeHeader(w, header);
    w.varint(1, 10);
    w.varint(0, 10);
    expect(() => decodeBlock(w.finish())).toThrow(/block.transactions\[0\]: expected non-empty/);
    expect(() => encodeBlock({ header, transactions: [new Uint8Array(0)] })).toThrow(EncodeError);
  });

  it(`refuses more than ${blockTxCountMax} transactions`, () => {
    const w = createByteWriter();
    writeHeader(w, header);
    w.varint(blockTxCountMax + 1, Number.MAX_SAFE_INTEGER);
    expect(() => decodeBlock(w.finish())).toThrow(/block.transactions count: expected at most 10000, got 10001/);
    const many = Array.from({ length: blockTxCountMax + 1 }, () => Uint8Array.of(1));
    expect(() => encodeBlock({ header, transactions: many })).toThrow(EncodeError);
  });

  it(`refuses a transaction over ${txBytesMax} bytes`, () => {
    const w = createByteWriter();
    writeHeader(w, header);
    w.varint(1, 10);
    w.varint(txBytesMax + 1, Number.MAX_SAFE_INTEGER);
    w.bytes(new Uint8Array(txBytesMax + 1));
    expect(() => decodeBlock(w.finish())).toThrow(/length: expected at most 100000, got 100001/);
    expect(() => encodeBlock({ header, transactions: [new Uint8Array(txBytesMax + 1)] })).toThrow(EncodeError);
  });

  it(`refuses a block over ${blockBytesMax} bytes`, () => {
    expect(() => decodeBlock(new Uint8Array(blockBytesMax + 1))).toThrow(/block: expected at most 1000000 bytes/);
    const transactions = Array.from({ length: 10 }, () => new Uint8Array(txBytesMax));
    expect(() => encodeBlock({ header, transactions })).toThrow(/block: expected at most 1000000 bytes/);
    // 9 full transactions fit.
    expect(decodeBlock(encodeBlock({ header, transactions: transactions.slice(0, 9) })).transactions).toHaveLength(9);
  });
});

describe('merkle root', () => {
  it('matches RFC 6962 MTH for 0..40 leaves', () => {
    for (let n = 0; n <= 40; n++) {
      const leaves = Array.from({ length: n }, (_, i) => leaf(i));
      expect(toHex(merkleRoot(leaves)), `n = ${n}`).toBe(toHex(rfc6962Root(leaves)));
    }
  });

  it('empty list gives emptyMerkleRoot = BLAKE3 of nothing', () => {
    expect(toHex(merkleRoot([]))).toBe(toHex(emptyMerkleRoot));
    expect(toHex(emptyMerkleRoot)).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
  });

  it('one leaf is BLAKE3(0x00 || leaf), two are BLAKE3(0x01 || l || r)', () => {
    const a = leaf(1);
    const b = leaf(2);
    const la = blake3(concatBytes(Uint8Array.of(0), a));
    const lb = blake3(concatBytes(Uint8Array.of(0), b));
    expect(merkleRoot([a])).toEqual(la);
    expect(merkleRoot([a, b])).toEqual(blake3(concatBytes(Uint8Array.of(1), la, lb)));
  });

  it('has no duplication attack: [a, b, c] and [a, b, c, c] differ', () => {
    const [a, b, c] = [leaf(1), leaf(2), leaf(3)];
    expect(toHex(merkleRoot([a, b, c]))).not.toBe(toHex(merkleRoot([a, b, c, c])));
  });

  it('a leaf cannot pose as an interior node', () => {
    const [a, b] = [leaf(1), leaf(2)];
    const la = blake3(concatBytes(Uint8Array.of(0), a));
    const lb = blake3(concatBytes(Uint8Array.of(0), b));
    // Without prefixes, root([a, b]) = H(a || b) could be replayed as a leaf one level up.
    expect(toHex(merkleRoot([a, b]))).not.toBe(toHex(blake3(concatBytes(la, lb))));
  });

  it('changes when any leaf changes or leaves swap', () => {
    const leaves = Array.from({ length: 7 }, (_, i) => leaf(i));
    const root = toHex(merkleRoot(leaves));
    for (let i = 0; i < leaves.length; i++) {
      const changed = leaves.slice();
      changed[i] = leaf(100 + i);
      expect(toHex(merkleRoot(changed))).not.toBe(root);
    }
    expect(toHex(merkleRoot([leaves[1]!, leaves[0]!, ...leaves.slice(2)]))).not.toBe(root);
  });

  it('refuses leaves that are not 32 bytes', () => {
    expect(() => merkleRoot([new Uint8Array(31)])).toThrow(EncodeError);
  });

  it('transactionsRoot is the merkle root of BLAKE3 of each transaction', () => {
    const transactions = [Uint8Array.of(1, 2, 3), Uint8Array.of(4)];
    expect(transactionsRoot({ transactions })).toEqual(merkleRoot(transactions.map((t) => blake3(t))));
    expect(transactionsRoot({ transactions: [] })).toEqual(emptyMerkleRoot);
  });
});
