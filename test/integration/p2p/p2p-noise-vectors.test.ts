// Noise (rev 34) against the cacophony vectors in ../shared/vectors/noise/cacophony-subset.json: every vector
// whose protocol this implementation covers (all of them: NN/XK/IK/XX × 25519 × ChaChaPoly × SHA256/BLAKE2s) is
// run byte for byte — handshake messages, handshake hash, then transport messages on the split CipherStates.
// Then the CipherState's rekey and nonce rules, and initiator/responder agreement for the patterns without vectors.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { readVectorJson } from '../../vectors.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { createCipherState, noiseNonceMax, type CipherState } from '../../../src/p2p/noise/cipher-state.ts';
import {
  createHandshakeState,
  handshakePatterns,
  parseNoiseProtocolName,
  type HandshakeState,
} from '../../../src/p2p/noise/handshake-state.ts';
import { chaChaPolyCipher, weftNoiseSuite, x25519Dh, blake2sHash, type NoiseSuite } from '../../../src/p2p/noise/suites.ts';
import { DecryptError, HandshakeError, NonceExhaustedError, P2pErrorCode } from '../../../src/p2p/errors.ts';

interface Vector {
  protocol_name: string;
  init_prologue: string;
  init_static?: string;
  init_ephemeral: string;
  init_remote_static?: string;
  init_psks?: string[];
  resp_prologue: string;
  resp_static?: string;
  resp_ephemeral: string;
  resp_remote_static?: string;
  handshake_hash: string;
  messages: { payload: string; ciphertext: string }[];
}

const { vectors } = readVectorJson<{ vectors: Vector[] }>('noise', 'cacophony-subset.json');
const keyPair = (hex: string | undefined) => (hex === undefined ? undefined : x25519Dh.keyPairFromPrivate(fromHex(hex)));
const hex = (s: string | undefined) => (s === undefined ? undefined : fromHex(s));

function runVector(v: Vector): void {
  const parsed = parseNoiseProtocolName(v.protocol_name);
  if (parsed === undefined) throw new Error(`unsupported protocol ${v.protocol_name}`);
  const noRandom = () => {
    throw new Error('vectors fix every ephemeral key');
  };
  const init = createHandshakeState({
    ...parsed,
    initiator: true,
    prologue: fromHex(v.init_prologue),
    s: keyPair(v.init_static),
    e: keyPair(v.init_ephemeral),
    rs: hex(v.init_remote_static),
    randomBytes: noRandom,
  });
  const resp = createHandshakeState({
    ...parsed,
    initiator: false,
    prologue: fromHex(v.resp_prologue),
    s: keyPair(v.resp_static),
    e: keyPair(v.resp_ephemeral),
    rs: hex(v.resp_remote_static),
    randomBytes: noRandom,
  });
  const handshakeLength = parsed.pattern.messages.length;
  let ciphers: { init: { send: CipherState; receive: CipherState }; resp: { send: CipherState; receive: CipherState } } | undefined;
  v.messages.forEach((m, i) => {
    const fromInitiator = i % 2 === 0;
    let ciphertext: Uint8Array;
    let payload: Uint8Array;
    if (i < handshakeLength) {
      const [writer, reader]: HandshakeState[] = fromInitiator ? [init, resp] : [resp, init];
      ciphertext = writer!.writeMessage(fromHex(m.payload));
      payload = reader!.readMessage(ciphertext);
      if (i === handshakeLength - 1) {
        expect(toHex(init.handshakeHash())).toBe(v.handshake_hash);
        expect(toHex(resp.handshakeHash())).toBe(v.handshake_hash);
        ciphers = { init: init.split(), resp: resp.split() };
      }
    } else {
      const c = ciphers!;
      const [send, receive] = fromInitiator ? [c.init.send, c.resp.receive] : [c.resp.send, c.init.receive];
      ciphertext = send.encryptWithAd(new Uint8Array(0), fromHex(m.payload));
      payload = receive.decryptWithAd(new Uint8Array(0), ciphertext);
    }
    expect(toHex(ciphertext), `${v.protocol_name} message ${i}`).toBe(m.ciphertext);
    expect(toHex(payload)).toBe(m.payload);
  });
  expect(ciphers).toBeDefined();
}

describe('cacophony vectors', () => {
  const applicable = vectors.filter((v) => v.init_psks === undefined && parseNoiseProtocolName(v.protocol_name));

  it('covers every vector of the subset (no psk vectors are present)', () => {
    expect(vectors).toHaveLength(8);
    expect(applicable.map((v) => v.protocol_name).sort()).toEqual([
      'Noise_IK_25519_ChaChaPoly_BLAKE2s',
      'Noise_IK_25519_ChaChaPoly_SHA256',
      'Noise_NN_25519_ChaChaPoly_BLAKE2s',
      'Noise_NN_25519_ChaChaPoly_SHA256',
      'Noise_XK_25519_ChaChaPoly_BLAKE2s',
      'Noise_XK_25519_ChaChaPoly_SHA256',
      'Noise_XX_25519_ChaChaPoly_BLAKE2s',
      'Noise_XX_25519_ChaChaPoly_SHA256',
    ]);
  });

  for (const v of applicable) {
    it(v.protocol_name, () => runVector(v));
  }

  it('detects a flipped byte in XX handshake messages 2 and 3 (static key and payload tag)', () => {
    const v = vectors.find((x) => x.protocol_name === 'Noise_XX_25519_ChaChaPoly_SHA256')!;
    const parsed = parseNoiseProtocolName(v.protocol_name)!;
    for (const [i, offset] of [[1, 40], [1, 90], [2, 10], [2, 60]] as const) {
      const init = createHandshakeState({ ...parsed, initiator: true, prologue: fromHex(v.init_prologue), s: keyPair(v.init_static), e: keyPair(v.init_ephemeral) });
      const resp = createHandshakeState({ ...parsed, initiator: false, prologue: fromHex(v.resp_prologue), s: keyPair(v.resp_static), e: keyPair(v.resp_ephemeral) });
      let message = init.writeMessage(new Uint8Array(0));
      resp.readMessage(message);
      message = resp.writeMessage(new Uint8Array(0));
      if (i === 1) message[offset]! ^= 1;
      else {
        init.readMessage(message);
        message = init.writeMessage(new Uint8Array(0));
        message[offset]! ^= 1;
      }
      const reader = i === 1 ? init : resp;
      expect(() => reader.readMessage(message)).toThrow(HandshakeError);
    }
  });
});

describe('CipherState', () => {
  const key = fromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
  const nonce12 = (n: bigint) => {
    const out = new Uint8Array(12);
    new DataView(out.buffer).setBigUint64(4, n, true);
    return out;
  };

  it('rekeys to the first 32 bytes of ENCRYPT(k, 2^64-1, empty, zeros) and keeps the nonce (§11.3)', () => {
    const cs = createCipherState(chaChaPolyCipher, key);
    cs.encryptWithAd(new Uint8Array(0), Uint8Array.of(1, 2, 3));
    cs.rekey();
    expect(cs.nonce()).toBe(1n);
    const expectedKey = chacha20poly1305(key, nonce12(noiseNonceMax), new Uint8Array(0)).encrypt(new Uint8Array(32)).slice(0, 32);
    const plaintext = new TextEncoder().encode('after rekey');
    const ad = Uint8Array.of(9);
    expect(toHex(cs.encryptWithAd(ad, plaintext))).toBe(toHex(chacha20poly1305(expectedKey, nonce12(1n), ad).encrypt(plaintext)));
  });

  it('a receiver that missed the rekey fails authentication', () => {
    const sender = createCipherState(chaChaPolyCipher, key);
    const receiver = createCipherState(chaChaPolyCipher, key);
    sender.rekey();
    const ct = sender.encryptWithAd(new Uint8Array(0), Uint8Array.of(7));
    expect(() => receiver.decryptWithAd(new Uint8Array(0), ct)).toThrow(DecryptError);
    expect(receiver.nonce()).toBe(0n);
    receiver.rekey();
    expect(receiver.decryptWithAd(new Uint8Array(0), ct)).toEqual(Uint8Array.of(7));
  });

  it('refuses to use nonce 2^64-1 with NonceExhaustedError', () => {
    const sender = createCipherState(chaChaPolyCipher, key);
    const receiver = createCipherState(chaChaPolyCipher, key);
    sender.setNonce(noiseNonceMax - 1n);
    receiver.setNonce(noiseNonceMax - 1n);
    const last = sender.encryptWithAd(new Uint8Array(0), Uint8Array.of(1));
    expect(receiver.decryptWithAd(new Uint8Array(0), last)).toEqual(Uint8Array.of(1));
    expect(() => sender.encryptWithAd(new Uint8Array(0), Uint8Array.of(2))).toThrow(NonceExhaustedError);
    try {
      receiver.decryptWithAd(new Uint8Array(0), last);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(NonceExhaustedError);
      expect((error as NonceExhaustedError).code).toBe(P2pErrorCode.NonceExhausted);
    }
  });

  it('round-trips any plaintext and rejects any single flipped bit', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 40 }), fc.nat(), (pt, ad, flip) => {
        const a = createCipherState(chaChaPolyCipher, key);
        const b = createCipherState(chaChaPolyCipher, key);
        const ct = a.encryptWithAd(ad, pt);
        expect(b.decryptWithAd(ad, ct)).toEqual(pt);
        const bad = ct.slice();
        bad[flip % bad.length]! ^= 1 << (flip % 8);
        const c = createCipherState(chaChaPolyCipher, key);
        expect(() => c.decryptWithAd(ad, bad)).toThrow(DecryptError);
      }),
      { numRuns: 50 },
    );
  });
});

describe('patterns without vectors: both sides agree', () => {
  let counter = 0;
  // Deterministic, distinct key material per call (the injected randomness of the handshake).
  const randomBytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + ++counter * 7) & 0xff);

  function interop(name: string, suite: NoiseSuite): void {
    const pattern = handshakePatterns[name]!;
    const initStatic = x25519Dh.generateKeyPair(randomBytes);
    const respStatic = x25519Dh.generateKeyPair(randomBytes);
    const needs = (pre: readonly string[]) => pre.includes('s');
    const prologue = new TextEncoder().encode('interop');
    const init = createHandshakeState({
      pattern, suite, initiator: true, prologue, randomBytes, s: initStatic,
      rs: needs(pattern.responderPreMessage) ? respStatic.publicKey : undefined,
    });
    const resp = createHandshakeState({
      pattern, suite, initiator: false, prologue, randomBytes, s: respStatic,
      rs: needs(pattern.initiatorPreMessage) ? initStatic.publicKey : undefined,
    });
    for (let i = 0; i < pattern.messages.length; i++) {
      const [w, r] = i % 2 === 0 ? [init, resp] : [resp, init];
      const payload = Uint8Array.of(i, 1, 2);
      expect(r.readMessage(w.writeMessage(payload))).toEqual(payload);
    }
    expect(toHex(init.handshakeHash())).toBe(toHex(resp.handshakeHash()));
    const a = init.split();
    const b = resp.split();
    expect(b.receive.decryptWithAd(new Uint8Array(0), a.send.encryptWithAd(new Uint8Array(0), Uint8Array.of(5)))).toEqual(Uint8Array.of(5));
    expect(a.receive.decryptWithAd(new Uint8Array(0), b.send.encryptWithAd(new Uint8Array(0), Uint8Array.of(6)))).toEqual(Uint8Array.of(6));
  }

  for (const name of Object.keys(handshakePatterns)) {
    it(`${name} over 25519/ChaChaPoly/SHA256 and BLAKE2s`, () => {
      interop(name, weftNoiseSuite);
      interop(name, { ...weftNoiseSuite, hash: blake2sHash });
    });
  }
});
