import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { bech32, bech32m } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  addressBytes,
  addressHrp,
  AddressType,
  checkAddressBytes,
  decodeAddress,
  encodeAddress,
  InvalidAddressError,
  multisigAddress,
  multisigKeysMax,
  standardAddress,
} from '../../../src/crypto/address.ts';
import { InvalidKeyError, publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { bigIntToBytesBE, compareBytes, concatBytes, toHex } from '../../../src/util/bytes.ts';

const hrps = Object.values(addressHrp);
const keyOf = (d: number) => publicKeyFromPrivate(bigIntToBytesBE(BigInt(d), 32));
const arbPublicKey = fc.integer({ min: 1, max: 2 ** 31 }).map(keyOf);
const arbAddress = fc.oneof(
  arbPublicKey.map(standardAddress),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((p) => concatBytes(Uint8Array.of(AddressType.Multisig), p)),
);

function expectInvalid(fn: () => unknown, reason: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAddressError);
    expect((error as InvalidAddressError).code).toBe(-40002);
    expect((error as InvalidAddressError).details).toEqual({ reason });
    return;
  }
  throw new Error(`expected InvalidAddressError (${reason}), nothing was thrown`);
}

/** bech32m of arbitrary bytes under an hrp: builds strings the encoder itself refuses to produce. */
const rawBech32m = (hrp: string, bytes: Uint8Array) => bech32m.encode(hrp, bech32m.toWords(bytes));

describe('address strings', () => {
  it('round-trip every address on every network, in lowercase, 64–65 characters', () => {
    fc.assert(
      fc.property(arbAddress, fc.constantFrom(...hrps), (address, hrp) => {
        const text = encodeAddress(hrp, address);
        expect(text.startsWith(`${hrp}1`)).toBe(true);
        expect(text).toBe(text.toLowerCase());
        expect(text.length).toBe(hrp.length + 1 + 53 + 6);
        expect(toHex(decodeAddress(text, hrp))).toBe(toHex(address));
        expect(toHex(decodeAddress(text.toUpperCase(), hrp))).toBe(toHex(address));
      }),
      { numRuns: 50 },
    );
  });

  it('refuses an address of another network (-40002 wrong_network)', () => {
    const text = encodeAddress('tweft', standardAddress(keyOf(1)));
    expectInvalid(() => decodeAddress(text, 'weft'), 'wrong_network');
    expectInvalid(() => decodeAddress(encodeAddress('weft', standardAddress(keyOf(1))), 'dweft'), 'wrong_network');
  });

  it('detects any single substituted character in the data part (-40002 bad_checksum)', () => {
    const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    fc.assert(
      fc.property(arbAddress, fc.nat(), fc.nat(31), (address, position, replacement) => {
        const text = encodeAddress('weft', address);
        const at = 5 + (position % (text.length - 5));
        const swapped = alphabet[replacement]!;
        fc.pre(swapped !== text[at]);
        const corrupted = text.slice(0, at) + swapped + text.slice(at + 1);
        expectInvalid(() => decodeAddress(corrupted, 'weft'), 'bad_checksum');
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a bech32 (BIP173) checksum where bech32m is required', () => {
    const text = bech32.encode('weft', bech32.toWords(standardAddress(keyOf(2))));
    expectInvalid(() => decodeAddress(text, 'weft'), 'bad_checksum');
  });

  it('refuses mixed case', () => {
    const text = encodeAddress('weft', standardAddress(keyOf(3)));
    expectInvalid(() => decodeAddress(`${text.slice(0, -1)}${text.at(-1)!.toUpperCase()}`, 'weft'), 'mixed_case');
    expectInvalid(() => decodeAddress(`Weft${text.slice(4)}`, 'weft'), 'mixed_case');
  });

  it('refuses a payload of the wrong length', () => {
    expectInvalid(() => decodeAddress(rawBech32m('weft', new Uint8Array(32)), 'weft'), 'wrong_length');
    expectInvalid(() => decodeAddress(rawBech32m('weft', new Uint8Array(34)), 'weft'), 'wrong_length');
    expectInvalid(() => decodeAddress(rawBech32m('weft', new Uint8Array(0)), 'weft'), 'wrong_length');
  });

  it('refuses an unknown address type', () => {
    const typed = (type: number) => concatBytes(Uint8Array.of(type), new Uint8Array(32).fill(9));
    for (const type of [2, 7, 255]) expectInvalid(() => decodeAddress(rawBech32m('weft', typed(type)), 'weft'), 'unknown_type');
    expectInvalid(() => encodeAddress('weft', typed(2)), 'unknown_type');
  });

  it('refuses non-zero padding bits, over-long strings, a missing separator and non-strings', () => {
    const words = bech32m.toWords(standardAddress(keyOf(4)));
    words[words.length - 1]! |= 1; // 264 bits in 53 words leave one padding bit: set it.
    expectInvalid(() => decodeAddress(bech32m.encode('weft', words), 'weft'), 'bad_padding');
    expectInvalid(() => decodeAddress(`weft1${'q'.repeat(90)}`, 'weft'), 'too_long');
    expectInvalid(() => decodeAddress('weftqqqqqq', 'weft'), 'no_separator');
    expectInvalid(() => decodeAddress(42 as unknown as string, 'weft'), 'not_a_string');
  });

  it('refuses to encode a binary address that is not 33 bytes', () => {
    expectInvalid(() => encodeAddress('weft', new Uint8Array(32)), 'wrong_length');
    expectInvalid(() => checkAddressBytes(new Uint8Array(34)), 'wrong_length');
  });
});

describe('binary addresses', () => {
  it('standard = 0x00 || x-only key, and refuses a key that is not on the curve', () => {
    const key = keyOf(5);
    const address = standardAddress(key);
    expect(address.length).toBe(addressBytes);
    expect(toHex(address)).toBe(`00${toHex(key)}`);
    expect(() => standardAddress(new Uint8Array(32).fill(0xff))).toThrow(InvalidKeyError);
  });

  it('multisig = 0x01 || BLAKE3("weft/multisig/v1" || m || n || sorted keys), whatever the key order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: multisigKeysMax }), fc.nat(), (ds, seed) => {
        const keys = ds.map(keyOf);
        const m = 1 + (seed % keys.length);
        const sorted = [...keys].sort(compareBytes);
        const expected = nobleBlake3(
          concatBytes(new TextEncoder().encode('weft/multisig/v1'), Uint8Array.of(m, keys.length), ...sorted),
        );
        const address = multisigAddress(m, keys);
        expect(toHex(address)).toBe(`01${toHex(expected)}`);
        expect(toHex(multisigAddress(m, [...keys].reverse()))).toBe(toHex(address));
      }),
      { numRuns: 20 },
    );
  });

  it('depends on m', () => {
    const keys = [keyOf(1), keyOf(2), keyOf(3)];
    expect(toHex(multisigAddress(1, keys))).not.toBe(toHex(multisigAddress(2, keys)));
  });

  it('refuses bad multisig key sets with -32602', () => {
    const keys = [keyOf(1), keyOf(2), keyOf(3)];
    const tooMany = Array.from({ length: multisigKeysMax + 1 }, (_, i) => keyOf(i + 1));
    for (const [m, set] of [
      [0, keys],
      [4, keys],
      [1.5, keys],
      [1, []],
      [2, [keyOf(1), keyOf(1)]],
      [1, [keyOf(1), new Uint8Array(32).fill(0xff)]],
      [1, tooMany],
    ] as const) {
      expect(() => multisigAddress(m, set)).toThrow(expect.objectContaining({ code: -32602 }));
    }
  });
});
