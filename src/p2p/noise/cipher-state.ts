/**
 * Noise CipherState (spec rev 34, §5.1): a key k and a 64-bit nonce n. Rekey follows §11.3 / §4.2:
 * REKEY(k) = the first 32 bytes of ENCRYPT(k, maxnonce, zerolen, zeros), and it leaves n unchanged.
 */
import { assert } from '../../errors.ts';
import { DecryptError, NonceExhaustedError } from '../errors.ts';
import type { CipherSuite } from './suites.ts';

/** Noise §3: every Noise message is at most this long. */
export const noiseMessageBytesMax = 65_535;
/** ChaChaPoly and AESGCM tags. */
export const noiseTagBytes = 16;
export const noiseKeyBytes = 32;
/** 2^64−1: reserved by §5.1 (never used to encrypt a message), and the nonce REKEY uses. */
export const noiseNonceMax = 0xffff_ffff_ffff_ffffn;

const emptyBytes = new Uint8Array(0);
const rekeyZeros = new Uint8Array(noiseKeyBytes);

export interface CipherState {
  hasKey(): boolean;
  /** The next nonce to use (messages processed so far on this key chain). */
  nonce(): bigint;
  /** SetNonce (§5.1): for tests and out-of-order transports; Weft's in-order sessions never call it. */
  setNonce(n: bigint): void;
  /** Returns plaintext unchanged while no key is set (handshake before the first DH). */
  encryptWithAd(ad: Uint8Array, plaintext: Uint8Array): Uint8Array;
  /** Throws DecryptError on authentication failure; n is then not incremented. */
  decryptWithAd(ad: Uint8Array, ciphertext: Uint8Array): Uint8Array;
  rekey(): void;
}

export function createCipherState(cipher: CipherSuite, initialKey?: Uint8Array): CipherState {
  let key: Uint8Array | undefined;
  let n = 0n;

  function initializeKey(k: Uint8Array | undefined): void {
    assert(k === undefined || k.length === noiseKeyBytes, `cipher key must be ${noiseKeyBytes} bytes`);
    key = k;
    n = 0n;
  }
  initializeKey(initialKey);

  function checkNonce(): void {
    if (n >= noiseNonceMax) throw new NonceExhaustedError();
  }

  return {
    hasKey: () => key !== undefined,
    nonce: () => n,
    setNonce(value) {
      assert(value >= 0n && value <= noiseNonceMax, 'nonce must be a u64');
      n = value;
    },
    encryptWithAd(ad, plaintext) {
      if (key === undefined) return plaintext;
      checkNonce();
      const ciphertext = cipher.encrypt(key, n, ad, plaintext);
      n += 1n;
      return ciphertext;
    },
    decryptWithAd(ad, ciphertext) {
      if (key === undefined) return ciphertext;
      checkNonce();
      if (ciphertext.length < noiseTagBytes) {
        throw new DecryptError(`ciphertext of ${ciphertext.length} bytes is shorter than the ${noiseTagBytes}-byte tag`);
      }
      const plaintext = cipher.decrypt(key, n, ad, ciphertext);
      if (plaintext === undefined) throw new DecryptError(`authentication failed at nonce ${n}`);
      n += 1n;
      return plaintext;
    },
    rekey() {
      assert(key !== undefined, 'rekey needs a key');
      key = cipher.encrypt(key, noiseNonceMax, emptyBytes, rekeyZeros).slice(0, noiseKeyBytes);
    },
  };
}
