// The wallet page's send checks as typed (web/wallet/send-check.ts): exact decimal coins, the recipient's network
// and checksum, funds against the verified balance, and Max.
import { describe, expect, it } from 'vitest';
import { encodeAddress, standardAddress } from '../../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import { checkSendDraft, maxSendable, parseCoinText, parseRecipient } from '../../../../web/wallet/send-check.ts';
import { FieldError } from '../../../../web/wallet/form-errors.ts';

const address = encodeAddress('rweft', standardAddress(publicKeyFromPrivate(new Uint8Array(32).fill(7))));
/** The same address with one data character changed: the bech32m checksum no longer matches. */
const typo = `${address.slice(0, 20)}${address[20] === 'q' ? 'p' : 'q'}${address.slice(21)}`;
const coin = 100_000_000n;

describe('parseCoinText', () => {
  it('reads decimal coins exactly, without float rounding', () => {
    expect(parseCoinText('1.5', 'amount')).toBe(150_000_000n);
    expect(parseCoinText('0.1', 'amount')).toBe(10_000_000n);
    expect(parseCoinText('0.00000001', 'amount')).toBe(1n);
    expect(parseCoinText(' 21000000 ', 'amount')).toBe(21_000_000n * coin);
    expect(parseCoinText('3.', 'amount')).toBe(3n * coin);
    expect(parseCoinText('0', 'fee', true)).toBe(0n);
  });

  it('names the field that is wrong and says why', () => {
    const fieldOf = (text: string, allowZero = false) => {
      try {
        parseCoinText(text, 'amount', allowZero);
      } catch (error) {
        expect(error).toBeInstanceOf(FieldError);
        return [(error as FieldError).field, (error as Error).message];
      }
      throw new Error(`${text} was accepted`);
    };
    expect(fieldOf('lots')).toEqual(['amount', 'amount: expected an amount in WEFT, e.g. 1.5']);
    expect(fieldOf('-1')[1]).toMatch(/expected an amount in WEFT/);
    expect(fieldOf('1e3')[1]).toMatch(/expected an amount in WEFT/);
    expect(fieldOf('0.000000001')[1]).toMatch(/at most 8 decimals/);
    expect(fieldOf('21000000.00000001')[1]).toMatch(/supply cap/);
    expect(fieldOf('0')[1]).toMatch(/must be more than 0/);
    expect(fieldOf('9'.repeat(100))[1]).toMatch(/expected an amount in WEFT/);
  });
});

describe('parseRecipient', () => {
  it('accepts an address of this network, also all in capitals (QR codes)', () => {
    expect(parseRecipient(address, 'rweft')).toHaveLength(33);
    expect(parseRecipient(address.toUpperCase(), 'rweft')).toEqual(parseRecipient(address, 'rweft'));
  });
  it('refuses a checksum typo, another network and an empty field, as errors about `to`', () => {
    expect(() => parseRecipient(typo, 'rweft')).toThrow(/to: not a rweft address \(address: bech32m checksum/);
    expect(() => parseRecipient(address, 'weft')).toThrow(/got prefix "rweft", expected "weft"/);
    expect(() => parseRecipient('  ', 'rweft')).toThrow(/to: enter the recipient's rweft1… address/);
  });
});

describe('checkSendDraft', () => {
  const draft = { to: address, amount: '1.5', fee: '0.01' };
  it('gives the total and the balance after the send', () => {
    const result = checkSendDraft(draft, { hrp: 'rweft', balance: 10n * coin });
    expect(result.errors).toEqual({});
    expect(result.total).toBe(151_000_000n);
    expect(result.remaining).toBe(10n * coin - 151_000_000n);
  });
  it('says insufficient funds when amount + fee exceeds the verified balance, even by one unit', () => {
    const result = checkSendDraft(draft, { hrp: 'rweft', balance: 151_000_000n - 1n });
    expect(result.errors.amount).toMatch(/insufficient verified balance — 1.50999999 available, amount \+ fee is 1.51$/);
    expect(checkSendDraft(draft, { hrp: 'rweft', balance: 151_000_000n }).remaining).toBe(0n);
  });
  it('waits for the review step when no balance was proven yet', () => {
    const result = checkSendDraft({ ...draft, amount: '1000' }, { hrp: 'rweft', balance: undefined });
    expect(result.errors).toEqual({});
    expect(result.remaining).toBeUndefined();
  });
  it('reports only the fields asked for, several at once', () => {
    const bad = { to: typo, amount: 'x', fee: '0.123456789' };
    expect(Object.keys(checkSendDraft(bad, { hrp: 'rweft', balance: coin }).errors).sort()).toEqual(['amount', 'fee', 'to']);
    expect(Object.keys(checkSendDraft(bad, { hrp: 'rweft', balance: coin, fields: new Set(['amount']) }).errors)).toEqual(['amount']);
  });
});

describe('maxSendable', () => {
  it('is the balance less the fee, and never below zero', () => {
    expect(maxSendable(5n * coin, 1_000_000n)).toBe(499_000_000n);
    expect(maxSendable(1_000_000n, 1_000_000n)).toBe(0n);
    expect(maxSendable(0n, 1_000_000n)).toBe(0n);
  });
});
