// The wallet page's recovery-phrase checks (web/wallet/recovery-phrase.ts): the words asked back after a new
// phrase, and a restored phrase checked word by word.
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { describe, expect, it } from 'vitest';
import { checkRecoveryPhrase, pickChallengePositions, wrongChallengeAnswers } from '../../../../web/wallet/recovery-phrase.ts';

const phrase24 = entropyToMnemonic(new Uint8Array(32).fill(0x5a), english);
const trezor12 = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** Random bytes from a fixed list, then zeros: to steer the draws. */
const scripted = (values: number[]) => (n: number) => Uint8Array.from({ length: n }, () => values.shift() ?? 0);

describe('pickChallengePositions', () => {
  it('gives three distinct ascending positions within the phrase', () => {
    for (let seed = 0; seed < 200; seed++) {
      let state = seed;
      const positions = pickChallengePositions(24, (n) => Uint8Array.from({ length: n }, () => (state = (state * 1103515245 + 12345) >>> 0) >>> 24));
      expect(positions).toHaveLength(3);
      expect(new Set(positions).size).toBe(3);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      for (const p of positions) expect(p >= 0 && p < 24).toBe(true);
    }
  });

  it('rejects draws past the largest multiple of the range, so no position is favoured', () => {
    // 65535 ≥ floor(65536 / 24) · 24 = 65520: rejected; then 0x0005 → 5; then 0 → 0; then 0 → 1 (0 was taken).
    expect(pickChallengePositions(24, scripted([0xff, 0xff, 0x00, 0x05]))).toEqual([0, 1, 5]);
  });

  it('is near uniform over many draws (crypto randomness)', () => {
    const counts = new Array<number>(24).fill(0);
    const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
    for (let i = 0; i < 8_000; i++) for (const p of pickChallengePositions(24, random)) counts[p]!++;
    // 24,000 picks, 1,000 expected per position; 5 standard deviations is about ±160.
    for (const c of counts) expect(Math.abs(c - 1_000)).toBeLessThan(200);
  });

  it('refuses a challenge larger than the phrase', () => {
    expect(() => pickChallengePositions(2, scripted([]), 3)).toThrow(RangeError);
  });
});

describe('wrongChallengeAnswers', () => {
  const words = phrase24.split(' ');
  it('accepts the right words whatever their case and spaces, and names the wrong positions', () => {
    expect(wrongChallengeAnswers(words, [1, 7, 20], [` ${words[1]!.toUpperCase()} `, words[7]!, words[20]!])).toEqual([]);
    expect(wrongChallengeAnswers(words, [1, 7, 20], [words[1]!, words[8] === words[7] ? 'zoo' : words[8]!, ''])).toEqual([7, 20]);
  });
});

describe('checkRecoveryPhrase', () => {
  it('normalizes a valid phrase of any BIP39 length', () => {
    expect(checkRecoveryPhrase(`  ${trezor12.toUpperCase().replace(/ /g, '\n ')} `)).toBe(trezor12);
    expect(checkRecoveryPhrase(phrase24)).toBe(phrase24);
  });
  it('names the first word not in the list, and the word it likely meant', () => {
    const words = trezor12.split(' ');
    words[4] = 'abandn';
    expect(() => checkRecoveryPhrase(words.join(' '))).toThrow('recovery phrase: word 5 "abandn" is not in the BIP39 English word list (did you mean "abandon"?)');
    // A three-letter word with a letter too many: its four-letter prefix matches nothing, the word itself does.
    words[4] = 'seaq';
    expect(() => checkRecoveryPhrase(words.join(' '))).toThrow('(did you mean "sea"?)');
    words[4] = 'xylophone';
    expect(() => checkRecoveryPhrase(words.join(' '))).toThrow(/word 5 "xylophone" is not in the BIP39 English word list$/);
  });
  it('says the word count is wrong, and a checksum that does not add up', () => {
    expect(() => checkRecoveryPhrase('abandon abandon about')).toThrow('recovery phrase: got 3 words, expected 12, 15, 18, 21 or 24');
    expect(() => checkRecoveryPhrase(trezor12.replace('about', 'abandon'))).toThrow(/checksum does not match — a word is wrong or out of order/);
    expect(() => checkRecoveryPhrase('   ')).toThrow(/enter the 12 to 24 words/);
  });
});
