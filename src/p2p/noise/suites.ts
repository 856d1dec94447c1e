/**
 * Noise crypto functions (spec rev 34, §4 and §12): the 25519 DH, the ChaChaPoly AEAD and the SHA256 / BLAKE2s
 * hashes, as small suite objects over @noble so the handshake code stays generic. Weft's p2p suite is
 * Noise_XX_25519_ChaChaPoly_SHA256 (libp2p's); BLAKE2s is here so every cacophony vector can be checked.
 * A node may hand the session a faster CipherSuite (e.g. node:crypto's chacha20-poly1305 in server/) with the
 * same output.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { blake2s } from '@noble/hashes/blake2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { HandshakeError } from '../errors.ts';

export interface KeyPair {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

export interface DhSuite {
  readonly name: string;
  /** DHLEN: bytes of a public key and of a DH output. */
  readonly dhBytes: number;
  /** GENERATE_KEYPAIR with the randomness injected (tests pass fixed bytes; nodes pass a CSPRNG). */
  generateKeyPair(randomBytes: (n: number) => Uint8Array): KeyPair;
  keyPairFromPrivate(privateKey: Uint8Array): KeyPair;
  /** DH(key_pair, public_key); throws HandshakeError for an invalid (e.g. low-order) public key. */
  dh(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
}

export interface CipherSuite {
  readonly name: string;
  /** ENCRYPT(k, n, ad, plaintext): ciphertext followed by the 16-byte tag. */
  encrypt(key: Uint8Array, nonce: bigint, ad: Uint8Array, plaintext: Uint8Array): Uint8Array;
  /** DECRYPT(k, n, ad, ciphertext): the plaintext, or undefined when authentication fails. */
  decrypt(key: Uint8Array, nonce: bigint, ad: Uint8Array, ciphertext: Uint8Array): Uint8Array | undefined;
}

export interface HashSuite {
  readonly name: string;
  /** HASHLEN. */
  readonly hashBytes: number;
  hash(data: Uint8Array): Uint8Array;
  hmac(key: Uint8Array, data: Uint8Array): Uint8Array;
}

export interface NoiseSuite {
  readonly dh: DhSuite;
  readonly cipher: CipherSuite;
  readonly hash: HashSuite;
}

const x25519KeyBytes = 32;
/** The base point's u-coordinate, 9 (RFC 7748 §4.1), little-endian. */
const x25519BasePoint = Uint8Array.from({ length: x25519KeyBytes }, (_, i) => (i === 0 ? 9 : 0));

export const x25519Dh: DhSuite = {
  name: '25519',
  dhBytes: x25519KeyBytes,
  generateKeyPair(randomBytes) {
    return x25519Dh.keyPairFromPrivate(randomBytes(x25519KeyBytes));
  },
  keyPairFromPrivate(privateKey) {
    if (privateKey.length !== x25519KeyBytes) {
      throw new HandshakeError(`x25519 private key is ${privateKey.length} bytes, expected ${x25519KeyBytes}`);
    }
    // The ladder on u = 9, not noble's getPublicKey: that one multiplies on ed25519 with a precomputed base table,
    // and building the table on first use was a 90 ms task in a tab's light-node start (350 ms in a 4×-slowed
    // trace, issue 32). One ladder is a few ms; a Noise handshake runs three more anyway. Same key (RFC 7748 §6.1).
    return { privateKey, publicKey: x25519.scalarMult(privateKey, x25519BasePoint) };
  },
  dh(privateKey, publicKey) {
    try {
      return x25519.getSharedSecret(privateKey, publicKey);
    } catch (cause) {
      // noble refuses low-order points (all-zero shared secret); Noise §12.1 allows signalling an error here.
      throw new HandshakeError('x25519 rejected the remote public key', { cause });
    }
  },
};

/** ChaChaPoly nonce (§12.3): 32 bits of zeros, then n as 64-bit little-endian. */
function chachaNonce(n: bigint): Uint8Array {
  const nonce = new Uint8Array(12);
  new DataView(nonce.buffer).setBigUint64(4, n, true);
  return nonce;
}

export const chaChaPolyCipher: CipherSuite = {
  name: 'ChaChaPoly',
  encrypt(key, nonce, ad, plaintext) {
    return chacha20poly1305(key, chachaNonce(nonce), ad).encrypt(plaintext);
  },
  decrypt(key, nonce, ad, ciphertext) {
    try {
      return chacha20poly1305(key, chachaNonce(nonce), ad).decrypt(ciphertext);
    } catch {
      return undefined;
    }
  },
};

export const sha256Hash: HashSuite = {
  name: 'SHA256',
  hashBytes: 32,
  hash: (data) => sha256(data),
  hmac: (key, data) => hmac(sha256, key, data),
};

export const blake2sHash: HashSuite = {
  name: 'BLAKE2s',
  hashBytes: 32,
  hash: (data) => blake2s(data),
  hmac: (key, data) => hmac(blake2s, key, data),
};

/** Weft's p2p suite: 25519 + ChaChaPoly + SHA256, as libp2p-noise. */
export const weftNoiseSuite: NoiseSuite = { dh: x25519Dh, cipher: chaChaPolyCipher, hash: sha256Hash };

const dhByName: Readonly<Record<string, DhSuite>> = { '25519': x25519Dh };
const cipherByName: Readonly<Record<string, CipherSuite>> = { ChaChaPoly: chaChaPolyCipher };
const hashByName: Readonly<Record<string, HashSuite>> = { SHA256: sha256Hash, BLAKE2s: blake2sHash };

/** The suite named by the three crypto parts of a protocol name, or undefined when one is not implemented. */
export function suiteByNames(dhName: string, cipherName: string, hashName: string): NoiseSuite | undefined {
  const dh = dhByName[dhName];
  const cipher = cipherByName[cipherName];
  const hash = hashByName[hashName];
  return dh && cipher && hash ? { dh, cipher, hash } : undefined;
}
