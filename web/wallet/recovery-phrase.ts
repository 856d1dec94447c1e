/**
 * The recovery phrase as the user sees it: which words to ask back after showing a new phrase (three at random
 * positions, MetaMask's "confirm your Secret Recovery Phrase"), and a typed phrase checked word by word so a restore
 * says which word is wrong (not in the BIP39 English list, with the word it most likely meant) or that the words do
 * not add up (BIP39 checksum), instead of one opaque "invalid mnemonic". Pure; randomness is a parameter.
 */
import { validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import type { RandomBytes } from '../../src/crypto/keys.ts';
import { FieldError } from './form-errors.ts';

/** Words asked back before a new wallet is usable. */
const phraseChallengeWords = 3;
/** BIP39 phrase lengths (128 to 256 bits of entropy). */
const phraseWordCounts = [12, 15, 18, 21, 24] as const;

/**
 * `count` distinct word positions (0-based, ascending) out of `wordCount`, uniformly at random: each draw is a
 * 16-bit value, rejected above the largest multiple of the remaining range so no position is favoured.
 */
export function pickChallengePositions(wordCount: number, randomBytes: RandomBytes, count: number = phraseChallengeWords): number[] {
  if (!Number.isInteger(wordCount) || !Number.isInteger(count) || count < 1 || count > wordCount || wordCount > 0xffff) {
    throw new RangeError(`challenge: got ${count} of ${wordCount} words, expected 1 ≤ count ≤ words ≤ 65535`);
  }
  const left = Array.from({ length: wordCount }, (_, i) => i);
  const picked: number[] = [];
  while (picked.length < count) {
    const range = left.length;
    const limit = Math.floor(0x10000 / range) * range;
    const bytes = randomBytes(2);
    const draw = (bytes[0]! << 8) | bytes[1]!;
    if (draw >= limit) continue;
    picked.push(left.splice(draw % range, 1)[0]!);
  }
  return picked.sort((a, b) => a - b);
}

const normalizeWord = (word: string): string => word.normalize('NFKD').trim().toLowerCase();

/** The positions among `positions` whose answer is not the phrase's word there (case and spaces ignored). */
export function wrongChallengeAnswers(words: readonly string[], positions: readonly number[], answers: readonly string[]): number[] {
  return positions.filter((position, i) => normalizeWord(answers[i] ?? '') !== words[position]);
}

/**
 * The list word a misspelt one most likely meant: BIP39 English words are unique in their first four letters, and a
 * three-letter word is its own prefix ("seaq" meant "sea").
 */
function suggestion(word: string): string | undefined {
  if (word.length < 4) return undefined;
  const prefix = word.slice(0, 4);
  return english.find((w) => w.startsWith(prefix)) ?? english.find((w) => w.length === 3 && word.startsWith(w));
}

/**
 * A typed recovery phrase → its normalized form (lowercase, single spaces), or a FieldError about `field` saying
 * what is wrong: no words, a word count BIP39 does not have, the first word not in the list (its number, and the
 * word it likely meant), or a checksum that does not match (a word wrong or out of order).
 */
export function checkRecoveryPhrase(text: string, field = 'mnemonic'): string {
  const words = text.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) throw new FieldError(field, 'recovery phrase: enter the 12 to 24 words of your phrase, in order');
  const known = new Set(english);
  const unknown = words.findIndex((w) => !known.has(w));
  if (unknown >= 0) {
    const word = words[unknown]!;
    const likely = suggestion(word);
    throw new FieldError(field, `recovery phrase: word ${unknown + 1} "${word}" is not in the BIP39 English word list${likely ? ` (did you mean "${likely}"?)` : ''}`);
  }
  if (!(phraseWordCounts as readonly number[]).includes(words.length)) {
    throw new FieldError(field, `recovery phrase: got ${words.length} words, expected ${phraseWordCounts.join(', ').replace(/, (\d+)$/, ' or $1')}`);
  }
  const phrase = words.join(' ');
  if (!validateMnemonic(phrase, english)) throw new FieldError(field, 'recovery phrase: the checksum does not match — a word is wrong or out of order');
  return phrase;
}
