/**
 * Noise's ChaChaPoly (spec §12.3: 32 zero bits ‖ 64-bit LE counter as the nonce) on node:crypto's
 * chacha20-poly1305 — the same bytes as the @noble cipher (the transport tests run both against the cacophony
 * vectors' transport messages), about ten times faster per the research note; x25519 and SHA-256 stay on @noble.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { sha256Hash, x25519Dh, type CipherSuite, type NoiseSuite } from '../../src/p2p/noise/suites.ts';

const tagBytes = 16;

function nonceBytes(n: bigint): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64LE(n, 4);
  return nonce;
}

const nodeChaChaPoly: CipherSuite = {
  name: 'ChaChaPoly',
  encrypt(key, nonce, ad, plaintext) {
    const cipher = createCipheriv('chacha20-poly1305', key, nonceBytes(nonce), { authTagLength: tagBytes });
    cipher.setAAD(ad, { plaintextLength: plaintext.length });
    const head = cipher.update(plaintext);
    const tail = cipher.final();
    const out = new Uint8Array(head.length + tail.length + tagBytes);
    out.set(head, 0);
    out.set(tail, head.length);
    out.set(cipher.getAuthTag(), head.length + tail.length);
    return out;
  },
  decrypt(key, nonce, ad, ciphertext) {
    if (ciphertext.length < tagBytes) return undefined;
    try {
      const decipher = createDecipheriv('chacha20-poly1305', key, nonceBytes(nonce), { authTagLength: tagBytes });
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - tagBytes));
      decipher.setAAD(ad, { plaintextLength: ciphertext.length - tagBytes });
      const head = decipher.update(ciphertext.subarray(0, ciphertext.length - tagBytes));
      const tail = decipher.final();
      return tail.length === 0 ? new Uint8Array(head.buffer, head.byteOffset, head.length) : new Uint8Array(Buffer.concat([head, tail]));
    } catch {
      return undefined;
    }
  },
};

export const nodeNoiseSuite: NoiseSuite = { dh: x25519Dh, cipher: nodeChaChaPoly, hash: sha256Hash };
