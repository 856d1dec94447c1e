// Stealth address strings, the wallet's stealth accounts and ring-signed messages: round trips over random keys
// (fast-check), strict refusals with a reason, deterministic derivation from the mnemonic, and ring signatures that
// fail on every tamper.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keysFromSpendSecret } from '../../../src/crypto/monero/keys.ts';
import { encodePoint, mulBase } from '../../../src/crypto/monero/point.ts';
import { groupOrder } from '../../../src/crypto/monero/scalar.ts';
import { decodeStealthAddress, encodeStealthAddress, looksLikeStealthAddress } from '../../../src/crypto/stealth-address.ts';
import { newWalletPayload, openWallet } from '../../../src/wallet/wallet.ts';
import { decodeRingMessageSignature, signRingMessage, verifyRingMessage } from '../../../src/wallet/ring-message.ts';
import { seededRandom } from '../../helpers/confidential-fixtures.ts';

const scalar = fc.bigInt({ min: 1n, max: groupOrder - 1n });
const network = { name: 'regtest', chainId: 1338, hrp: 'rweft' };

describe('stealth address strings', () => {
  it('round-trip any key pair, with and without a payment id', () => {
    fc.assert(
      fc.property(scalar, scalar, fc.option(fc.uint8Array({ minLength: 8, maxLength: 8 }), { nil: undefined }), (b, a, paymentId) => {
        const address = { spendPublic: mulBase(b), viewPublic: mulBase(a), ...(paymentId ? { paymentId } : {}) };
        const text = encodeStealthAddress('rweft', address);
        expect(looksLikeStealthAddress(text, 'rweft')).toBe(true);
        expect(looksLikeStealthAddress(text, 'weft')).toBe(false);
        const back = decodeStealthAddress(text.toUpperCase(), 'rweft');
        expect(encodePoint(back.spendPublic)).toEqual(encodePoint(address.spendPublic));
        expect(encodePoint(back.viewPublic)).toEqual(encodePoint(address.viewPublic));
        expect(back.paymentId).toEqual(paymentId);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses other networks, bad checksums, mixed case and small-order keys (-40006)', () => {
    const text = encodeStealthAddress('rweft', { spendPublic: mulBase(5n), viewPublic: mulBase(7n) });
    const refused = (t: string) => {
      try {
        decodeStealthAddress(t, 'rweft');
      } catch (e) {
        return (e as { code: number }).code;
      }
      return 'accepted';
    };
    expect(refused(text.replace('rwefts', 'twefts'))).toBe(-40006);
    expect(refused(`${text.slice(0, -1)}${text.endsWith('q') ? 'p' : 'q'}`)).toBe(-40006);
    expect(refused(`${text.slice(0, 10).toUpperCase()}${text.slice(10)}`)).toBe(-40006);
    expect(refused(encodeStealthAddress('rweft', { spendPublic: mulBase(5n), viewPublic: mulBase(7n) }).slice(0, 40))).toBe(-40006);
    expect(() => encodeStealthAddress('rweft', { spendPublic: mulBase(5n), viewPublic: mulBase(7n), paymentId: new Uint8Array(4) })).toThrow(/payment_id/);
  });
});

describe('stealth accounts of a wallet', () => {
  it('derive the same keys from the same mnemonic, counted in the payload, apart from standard keys', () => {
    const payload = newWalletPayload(seededRandom(1));
    const wallet = openWallet({ name: 'w', network, payload });
    const first = wallet.stealth.create();
    const second = wallet.stealth.create();
    expect(first.text).not.toBe(second.text);
    expect(first.path).toBe("m/44'/1'/0'/2'/0'");
    expect(wallet.payload().stealthNext).toBe(2);
    const reopened = openWallet({ name: 'w', network, payload: wallet.payload() });
    expect(reopened.stealth.list().map((a) => a.text)).toEqual([first.text, second.text]);
    expect(reopened.stealth.bySpendKey(encodePoint(second.keys.spendPublic))?.index).toBe(1);
    // A payload from before stealth accounts opens with none.
    expect(openWallet({ name: 'w', network, payload }).stealth.count()).toBe(0);
    expect(openWallet({ name: 'w', network, payload }).payload().stealthNext).toBeUndefined();
  });
});

describe('ring-signed messages', () => {
  const signer = keysFromSpendSecret(11n);
  const decoys = [3n, 4n, 5n, 6n].map((s) => encodePoint(mulBase(s)));
  const own = encodePoint(signer.spendPublic);

  it('verify for the signer among the decoys, with one key image per signer (linkable)', () => {
    const a = signRingMessage(signer, 'hello', decoys, seededRandom(2));
    const b = signRingMessage(signer, 'other', decoys.slice(0, 2), seededRandom(3));
    expect(verifyRingMessage(own, 'hello', a)).toBe(true);
    expect(verifyRingMessage(decoys[0]!, 'hello', a)).toBe(true);
    expect(verifyRingMessage(encodePoint(mulBase(99n)), 'hello', a)).toBe(false);
    expect(decodeRingMessageSignature(a)!.ring).toHaveLength(5);
    expect(decodeRingMessageSignature(a)!.keyImage).toEqual(decodeRingMessageSignature(b)!.keyImage);
  });

  it('need a decoy (a ring of one names its signer), and encode the same ring whichever member signs', () => {
    expect(() => signRingMessage(signer, 'hello', [], seededRandom(5))).toThrow(/ring of one/);
    expect(() => signRingMessage(signer, 'hello', [own], seededRandom(5))).toThrow(/ring of one/);
    const other = keysFromSpendSecret(12n);
    const otherKey = encodePoint(other.spendPublic);
    const byFirst = decodeRingMessageSignature(signRingMessage(signer, 'hello', [otherKey, ...decoys], seededRandom(6)))!;
    const bySecond = decodeRingMessageSignature(signRingMessage(other, 'hello', [own, ...decoys], seededRandom(7)))!;
    // Sorted by key: the position of each member is its rank, the same whoever signed; only the proof differs.
    expect(byFirst.ring).toEqual(bySecond.ring);
    expect(verifyRingMessage(own, 'hello', signRingMessage(other, 'hello', [own, ...decoys], seededRandom(8)))).toBe(true);
  });

  it('fail on any changed byte, a changed message or a wrong length', () => {
    const sig = signRingMessage(signer, 'hello', decoys, seededRandom(4));
    expect(verifyRingMessage(own, 'hullo', sig)).toBe(false);
    expect(verifyRingMessage(own, 'hello', sig.subarray(0, sig.length - 1))).toBe(false);
    for (const at of [0, 1, 40, 1 + 32 * 5 + 3, sig.length - 1]) {
      const bad = Uint8Array.from(sig);
      bad[at]! ^= 1;
      expect(verifyRingMessage(own, 'hello', bad), `byte ${at}`).toBe(false);
    }
  });
});
