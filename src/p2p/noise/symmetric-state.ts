/**
 * Noise SymmetricState (spec rev 34, §5.2): the chaining key ck, the handshake hash h and a CipherState, with
 * the §4.3 HKDF built on the suite's HMAC.
 */
import { concatBytes } from '../../util/bytes.ts';
import { createCipherState, noiseKeyBytes, type CipherState } from './cipher-state.ts';
import type { HashSuite, NoiseSuite } from './suites.ts';

const byte1 = Uint8Array.of(1);
const byte2 = Uint8Array.of(2);
const byte3 = Uint8Array.of(3);

/** HKDF(chaining_key, input_key_material, num_outputs) of §4.3: two or three HASHLEN outputs. */
function noiseHkdf(hash: HashSuite, chainingKey: Uint8Array, ikm: Uint8Array, outputs: 2 | 3): Uint8Array[] {
  const tempKey = hash.hmac(chainingKey, ikm);
  const out1 = hash.hmac(tempKey, byte1);
  const out2 = hash.hmac(tempKey, concatBytes(out1, byte2));
  if (outputs === 2) return [out1, out2];
  return [out1, out2, hash.hmac(tempKey, concatBytes(out2, byte3))];
}

/** §5.2: a HASHLEN-64 suite's temp_k is truncated to the 32-byte cipher key. */
function truncateKey(k: Uint8Array): Uint8Array {
  return k.length === noiseKeyBytes ? k : k.slice(0, noiseKeyBytes);
}

export interface SymmetricState {
  mixKey(ikm: Uint8Array): void;
  mixHash(data: Uint8Array): void;
  mixKeyAndHash(ikm: Uint8Array): void;
  handshakeHash(): Uint8Array;
  hasKey(): boolean;
  encryptAndHash(plaintext: Uint8Array): Uint8Array;
  decryptAndHash(ciphertext: Uint8Array): Uint8Array;
  /** Split(): the initiator→responder and responder→initiator CipherStates. */
  split(): [CipherState, CipherState];
}

export function createSymmetricState(suite: NoiseSuite, protocolName: string): SymmetricState {
  const { hash } = suite;
  const name = new TextEncoder().encode(protocolName);
  let h: Uint8Array;
  if (name.length <= hash.hashBytes) {
    h = new Uint8Array(hash.hashBytes);
    h.set(name);
  } else {
    h = hash.hash(name);
  }
  let ck = h;
  // InitializeKey is a fresh CipherState each time, so the nonce restarts at 0 with every new key.
  let cs = createCipherState(suite.cipher);

  const state: SymmetricState = {
    mixKey(ikm) {
      const [nextCk, tempK] = noiseHkdf(hash, ck, ikm, 2);
      ck = nextCk!;
      cs = createCipherState(suite.cipher, truncateKey(tempK!));
    },
    mixHash(data) {
      h = hash.hash(concatBytes(h, data));
    },
    mixKeyAndHash(ikm) {
      const [nextCk, tempH, tempK] = noiseHkdf(hash, ck, ikm, 3);
      ck = nextCk!;
      state.mixHash(tempH!);
      cs = createCipherState(suite.cipher, truncateKey(tempK!));
    },
    handshakeHash: () => h,
    hasKey: () => cs.hasKey(),
    encryptAndHash(plaintext) {
      const ciphertext = cs.encryptWithAd(h, plaintext);
      state.mixHash(ciphertext);
      return ciphertext;
    },
    decryptAndHash(ciphertext) {
      const plaintext = cs.decryptWithAd(h, ciphertext);
      state.mixHash(ciphertext);
      return plaintext;
    },
    split() {
      const [k1, k2] = noiseHkdf(hash, ck, new Uint8Array(0), 2);
      return [createCipherState(suite.cipher, truncateKey(k1!)), createCipherState(suite.cipher, truncateKey(k2!))];
    },
  };
  return state;
}
