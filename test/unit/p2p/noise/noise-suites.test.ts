// The Noise DH suite's public keys (src/p2p/noise/suites.ts): made by the Montgomery ladder on the base point, not
// noble's table-based getPublicKey (whose first call builds a table: a long task in a tab), they must be the same
// keys — RFC 7748 §6.1's vector and noble's own answer for random private keys.
import { x25519 } from '@noble/curves/ed25519.js';
import { expect, it } from 'vitest';
import { x25519Dh } from '../../../../src/p2p/noise/suites.ts';
import { fromHex, toHex } from '../../../../src/util/bytes.ts';

it('derives RFC 7748 §6.1 public keys', () => {
  const alice = x25519Dh.keyPairFromPrivate(fromHex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'));
  expect(toHex(alice.publicKey)).toBe('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
  const bob = x25519Dh.keyPairFromPrivate(fromHex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb'));
  expect(toHex(bob.publicKey)).toBe('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
  expect(toHex(x25519Dh.dh(alice.privateKey, bob.publicKey))).toBe('4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742');
});

it('derives the public key noble does, for random private keys', () => {
  for (let i = 0; i < 20; i++) {
    const pair = x25519Dh.generateKeyPair((n) => crypto.getRandomValues(new Uint8Array(n)));
    expect(toHex(pair.publicKey)).toBe(toHex(x25519.getPublicKey(pair.privateKey)));
  }
});
