import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import {
  assembleMultisigTransfer,
  decodeTransaction,
  encodeTransaction,
  encodeTransactionBody,
  InvalidTransactionError,
  memoBytesMax,
  signingHash,
  signMultisigShare,
  signTransfer,
  txHash,
  verifyTransactionSignatures,
  type MultisigTransferTransaction,
  type Transaction,
  type TransferTransaction,
  type UnsignedMultisigTransfer,
  type UnsignedTransfer,
} from '../../../src/kinds/transaction-codec.ts';
import { implementedTxKinds, isKnownTxKind, TxKind, txKindName } from '../../../src/codec/transaction-kinds.ts';
import { canonicalMultisigKeys, multisigAddress, multisigKeysMax, standardAddress } from '../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { DecodeError } from '../../../src/errors.ts';
import { txBytesMax } from '../../../src/limits.ts';
import { bigIntToBytesBE, compareBytes, concatBytes, fromHex, toHex } from '../../../src/util/bytes.ts';

const u64Max = (1n << 64n) - 1n;
const sk = (d: number) => bigIntToBytesBE(BigInt(d), 32);
const pk = (d: number) => publicKeyFromPrivate(sk(d));
const aux = new Uint8Array(32).fill(0xa5);

const arbBytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const arbFields = fc.record({
  chainId: fc.constantFrom(1, 2, 1337, 0, 0xffff_ffff),
  to: fc.tuple(fc.constantFrom(0, 1), arbBytes(32)).map(([t, p]) => concatBytes(Uint8Array.of(t), p)),
  amount: fc.bigInt({ min: 0n, max: u64Max }),
  fee: fc.bigInt({ min: 0n, max: u64Max }),
  nonce: fc.bigInt({ min: 0n, max: u64Max }),
  useEnergy: fc.boolean(),
  memo: fc.uint8Array({ maxLength: memoBytesMax }),
});
const arbStandard: fc.Arbitrary<TransferTransaction> = fc
  .tuple(arbFields, arbBytes(32), arbBytes(64))
  .map(([f, from, signature]) => ({ kind: TxKind.Transfer, ...f, from: concatBytes(Uint8Array.of(0), from), signature }));
const arbMultisig: fc.Arbitrary<MultisigTransferTransaction> = fc
  .tuple(
    arbFields,
    arbBytes(32),
    fc.uniqueArray(arbBytes(32), { minLength: 1, maxLength: multisigKeysMax, comparator: (a, b) => compareBytes(a, b) === 0 }),
    fc.nat(),
    arbBytes(64),
  )
  .map(([f, from, keys, seed, sig]) => {
    const publicKeys = keys.sort(compareBytes);
    const m = 1 + (seed % publicKeys.length);
    const indices = publicKeys.map((_, i) => i).filter((i) => (seed >> i) & 1 || i < m).slice(0, m);
    const signatures = indices.map((index) => ({ index, signature: sig }));
    return { kind: TxKind.MultisigTransfer, ...f, from: concatBytes(Uint8Array.of(1), from), script: { m, publicKeys }, signatures };
  });

function baseTransfer(): UnsignedTransfer {
  return {
    kind: TxKind.Transfer,
    chainId: 1337,
    from: standardAddress(pk(1)),
    to: standardAddress(pk(2)),
    amount: 150_000_000n,
    fee: 1_000_000n,
    nonce: 7n,
    useEnergy: false,
    memo: new TextEncoder().encode('hi'),
  };
}

function expectDecodeError(bytes: Uint8Array, pattern?: RegExp): void {
  let thrown: unknown;
  try {
    decodeTransaction(bytes);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DecodeError);
  expect((thrown as DecodeError).code).toBe(-32602);
  if (pattern) expect((thrown as DecodeError).message).toMatch(pattern);
}

describe('transaction layout', () => {
  it('writes the documented bytes for a transfer', () => {
    const tx = signTransfer(baseTransfer(), sk(1), aux);
    const bytes = encodeTransaction(tx);
    const expected =
      '00' + // kind
      '39050000' + // chain_id 1337 LE
      toHex(tx.from) +
      toHex(tx.to) +
      '80d1f00800000000' + // 150_000_000 LE
      '40420f0000000000' + // 1_000_000 LE
      '0700000000000000' + // nonce 7
      '00' + // use_energy
      '0200' + // memo length 2
      '6869' + // "hi"
      toHex(tx.signature);
    expect(toHex(bytes)).toBe(expected);
    expect(bytes.length).toBe(98 + 2 + 64);
  });

  it('hashes: signing hash = BLAKE3("weft/tx/v1" || body), tx hash = BLAKE3(all bytes)', () => {
    const tx = signTransfer(baseTransfer(), sk(1), aux);
    const bytes = encodeTransaction(tx);
    const body = bytes.subarray(0, bytes.length - 64);
    expect(toHex(encodeTransactionBody(tx))).toBe(toHex(body));
    expect(toHex(signingHash(tx))).toBe(toHex(nobleBlake3(concatBytes(new TextEncoder().encode('weft/tx/v1'), body))));
    expect(toHex(txHash(tx))).toBe(toHex(nobleBlake3(bytes)));
  });

  it('signing hash ignores the witness; tx hash does not', () => {
    const a = signTransfer(baseTransfer(), sk(1), aux);
    const b = signTransfer(baseTransfer(), sk(1), new Uint8Array(32));
    expect(toHex(signingHash(a))).toBe(toHex(signingHash(b)));
    expect(toHex(txHash(a))).not.toBe(toHex(txHash(b)));
  });
});

describe('round trips', () => {
  it('decode(encode(tx)) = tx for standard transfers', () => {
    fc.assert(
      fc.property(arbStandard, (tx) => {
        const bytes = encodeTransaction(tx);
        expect(decodeTransaction(bytes)).toEqual(tx);
        expect(toHex(encodeTransaction(decodeTransaction(bytes)))).toBe(toHex(bytes));
      }),
      { numRuns: 200 },
    );
  });

  it('decode(encode(tx)) = tx for multisig transfers', () => {
    fc.assert(
      fc.property(arbMultisig, (tx) => {
        const bytes = encodeTransaction(tx);
        expect(decodeTransaction(bytes)).toEqual(tx);
      }),
      { numRuns: 200 },
    );
  });

  it('every strict prefix and every extension of a valid encoding is refused', () => {
    fc.assert(
      fc.property(fc.oneof(arbStandard, arbMultisig), fc.nat(), fc.integer({ min: 0, max: 255 }), (tx, cut, extra) => {
        const bytes = encodeTransaction(tx);
        expectDecodeError(bytes.subarray(0, cut % bytes.length));
        expectDecodeError(concatBytes(bytes, Uint8Array.of(extra)), /trailing/);
      }),
      { numRuns: 200 },
    );
  });
});

describe('signatures', () => {
  it('a signed transfer verifies; changing any field (the chain id too) breaks it', () => {
    const tx = signTransfer(baseTransfer(), sk(1), aux);
    expect(verifyTransactionSignatures(tx, nobleVerifier)).toBe(true);
    const changes: Partial<TransferTransaction>[] = [
      { chainId: 1 },
      { to: standardAddress(pk(3)) },
      { amount: tx.amount + 1n },
      { fee: tx.fee - 1n },
      { nonce: 8n },
      { useEnergy: true },
      { memo: new Uint8Array() },
    ];
    for (const change of changes) expect(verifyTransactionSignatures({ ...tx, ...change }, nobleVerifier)).toBe(false);
  });

  it('refuses to sign with a key that does not own `from`', () => {
    expect(() => signTransfer(baseTransfer(), sk(2), aux)).toThrow(InvalidTransactionError);
  });

  it('a 2-of-3 multisig transfer verifies with any two shares, not with a wrong script or an outsider', () => {
    const keys = canonicalMultisigKeys(2, [pk(11), pk(12), pk(13)]);
    const script = { m: 2, publicKeys: keys };
    const unsigned: UnsignedMultisigTransfer = { ...baseTransfer(), kind: TxKind.MultisigTransfer, from: multisigAddress(2, keys) };
    const shares = [11, 12, 13].map((d) => signMultisigShare(unsigned, script, sk(d), aux));
    for (const pair of [[0, 1], [0, 2], [2, 1]]) {
      const tx = assembleMultisigTransfer(unsigned, script, pair.map((i) => shares[i]!));
      expect(verifyTransactionSignatures(tx, nobleVerifier)).toBe(true);
      expect(verifyTransactionSignatures(decodeTransaction(encodeTransaction(tx)), nobleVerifier)).toBe(true);
    }
    // The script must hash to `from`: a 1-of-3 script over the same keys does not.
    const oneOf = assembleMultisigTransfer(unsigned, { m: 1, publicKeys: keys }, [shares[0]!]);
    expect(verifyTransactionSignatures(oneOf, nobleVerifier)).toBe(false);
    // A share by key 11 placed at key 12's index fails.
    const misplaced = assembleMultisigTransfer(unsigned, script, [shares[0]!, { ...shares[0]!, index: shares[1]!.index }]);
    expect(verifyTransactionSignatures(misplaced, nobleVerifier)).toBe(false);
    expect(() => signMultisigShare(unsigned, script, sk(14), aux)).toThrow(InvalidTransactionError);
    expect(() => assembleMultisigTransfer(unsigned, script, [shares[0]!])).toThrow(/expected m=2/);
    expect(() => assembleMultisigTransfer(unsigned, script, [shares[0]!, shares[0]!])).toThrow(/ascending/);
  });
});

describe('kinds', () => {
  it('reserves every future kind of docs/design.md "State, accounts and energy" under a distinct tag', () => {
    const tags = Object.values(TxKind);
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.length).toBe(18);
    expect(txKindName(TxKind.EscrowClaim)).toBe('escrow_claim');
    expect(txKindName(TxKind.AgentFundEnergyPool)).toBe('agent_fund_energy_pool');
    expect(txKindName(0x99)).toBeUndefined();
    expect([...implementedTxKinds]).toEqual([0, 1, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x30, 0x31, 0x32, 0x33, 0x34, 2, 3, 4, 0x10, 0x11]);
  });

  it('refuses every kind tag without a module, reserved or unknown; the other kinds refuse a transfer body', () => {
    const body = encodeTransaction(signTransfer(baseTransfer(), sk(1), aux));
    // 2–4 are the confidential kinds (test/integration/kinds/confidential-codec.test.ts): a transfer body is no valid encoding of them.
    for (let tag = 2; tag <= 4; tag++) {
      const bytes = Uint8Array.from(body);
      bytes[0] = tag;
      expect(() => decodeTransaction(bytes)).toThrow(DecodeError);
    }
    for (let tag = 5; tag < 256; tag++) {
      const bytes = Uint8Array.from(body);
      bytes[0] = tag;
      expectDecodeError(bytes, implementedTxKinds.has(tag) ? undefined : isKnownTxKind(tag) ? /reserved/ : /unknown/);
    }
  });
});

describe('bounds and canonical form', () => {
  const valid = () => encodeTransaction(signTransfer(baseTransfer(), sk(1), aux));
  const memoLengthAt = 1 + 4 + 33 + 33 + 24 + 1;

  it('refuses input over txBytesMax before reading it', () => {
    expectDecodeError(new Uint8Array(txBytesMax + 1), /at most 100000/);
  });

  it('refuses use_energy other than 0/1, an over-long memo, and mismatched address types', () => {
    const energy = valid();
    energy[memoLengthAt - 1] = 2;
    expectDecodeError(energy, /use_energy/);
    const memo = valid();
    memo.set([1, 1], memoLengthAt); // 257
    expectDecodeError(memo, /memo/);
    const multisigFrom = valid();
    multisigFrom[5] = 1;
    expectDecodeError(multisigFrom, /address type 1, expected 0/);
    const unknownTo = valid();
    unknownTo[5 + 33] = 9;
    expectDecodeError(unknownTo, /to/);
  });

  it('refuses non-canonical multisig witnesses', () => {
    const keys = [pk(1), pk(2), pk(3)].sort(compareBytes);
    const tx: MultisigTransferTransaction = {
      ...baseTransfer(),
      kind: TxKind.MultisigTransfer,
      from: multisigAddress(2, keys),
      script: { m: 2, publicKeys: keys },
      signatures: [
        { index: 0, signature: new Uint8Array(64) },
        { index: 2, signature: new Uint8Array(64) },
      ],
    };
    const bytes = encodeTransaction(tx);
    const scriptAt = 98 + 2; // fixed body + the 2-byte memo
    const patch = (at: number, value: number) => {
      const out = Uint8Array.from(bytes);
      out[at] = value;
      return out;
    };
    expectDecodeError(patch(scriptAt, 0), /m=0/);
    expectDecodeError(patch(scriptAt, 4), /m=4/);
    expectDecodeError(patch(scriptAt + 1, multisigKeysMax + 1), /n=17/);
    const swapped = Uint8Array.from(bytes);
    swapped.set(keys[1]!, scriptAt + 2);
    swapped.set(keys[0]!, scriptAt + 2 + 32);
    expectDecodeError(swapped, /ascending/);
    const sigsAt = scriptAt + 2 + 96;
    expectDecodeError(patch(sigsAt, 2), /ascending/);
    expectDecodeError(patch(sigsAt + 65, 3), /not < n=3/);
  });

  it('refuses to encode out-of-range fields', () => {
    const tx = signTransfer(baseTransfer(), sk(1), aux);
    const bad: Partial<Transaction>[] = [
      { amount: u64Max + 1n },
      { fee: -1n },
      { nonce: 1 as unknown as bigint },
      { chainId: 2 ** 32 },
      { chainId: -1 },
      { memo: new Uint8Array(memoBytesMax + 1) },
      { to: fromHex('00'.repeat(32)) },
      { signature: new Uint8Array(63) },
      { kind: TxKind.ContractCall as unknown as typeof TxKind.Transfer },
    ];
    for (const change of bad) {
      expect(() => encodeTransaction({ ...tx, ...change } as Transaction)).toThrow(InvalidTransactionError);
    }
  });
});
