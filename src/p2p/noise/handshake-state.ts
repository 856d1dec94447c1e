/**
 * Noise HandshakeState (spec rev 34, §5.3) over the twelve fundamental interactive patterns of §7.4 (NN … IX),
 * so the cacophony vectors for NN, XK, IK and XX can be checked; Weft itself runs XX. PSK modifiers and one-way
 * patterns are not implemented. Keys come in as parameters and randomness is injected, so runs are reproducible.
 */
import { assert } from '../../errors.ts';
import { concatBytes } from '../../util/bytes.ts';
import { HandshakeError } from '../errors.ts';
import { noiseMessageBytesMax, noiseTagBytes, type CipherState } from './cipher-state.ts';
import { createSymmetricState, type SymmetricState } from './symmetric-state.ts';
import { suiteByNames, type KeyPair, type NoiseSuite } from './suites.ts';

type NoiseToken = 'e' | 's' | 'ee' | 'es' | 'se' | 'ss';
type PreMessageToken = 'e' | 's';

export interface HandshakePattern {
  readonly name: string;
  readonly initiatorPreMessage: readonly PreMessageToken[];
  readonly responderPreMessage: readonly PreMessageToken[];
  /** Message i goes initiator → responder when i is even (all interactive patterns start with the initiator). */
  readonly messages: readonly (readonly NoiseToken[])[];
}

function pattern(
  name: string,
  initiatorPreMessage: PreMessageToken[],
  responderPreMessage: PreMessageToken[],
  messages: NoiseToken[][],
): HandshakePattern {
  return { name, initiatorPreMessage, responderPreMessage, messages };
}

/** §7.4 fundamental interactive patterns. */
export const handshakePatterns: Readonly<Record<string, HandshakePattern>> = {
  NN: pattern('NN', [], [], [['e'], ['e', 'ee']]),
  NK: pattern('NK', [], ['s'], [['e', 'es'], ['e', 'ee']]),
  NX: pattern('NX', [], [], [['e'], ['e', 'ee', 's', 'es']]),
  XN: pattern('XN', [], [], [['e'], ['e', 'ee'], ['s', 'se']]),
  XK: pattern('XK', [], ['s'], [['e', 'es'], ['e', 'ee'], ['s', 'se']]),
  XX: pattern('XX', [], [], [['e'], ['e', 'ee', 's', 'es'], ['s', 'se']]),
  KN: pattern('KN', ['s'], [], [['e'], ['e', 'ee', 'se']]),
  KK: pattern('KK', ['s'], ['s'], [['e', 'es', 'ss'], ['e', 'ee', 'se']]),
  KX: pattern('KX', ['s'], [], [['e'], ['e', 'ee', 'se', 's', 'es']]),
  IN: pattern('IN', [], [], [['e', 's'], ['e', 'ee', 'se']]),
  IK: pattern('IK', [], ['s'], [['e', 'es', 's', 'ss'], ['e', 'ee', 'se']]),
  IX: pattern('IX', [], [], [['e', 's'], ['e', 'ee', 'se', 's', 'es']]),
};

function noiseProtocolName(patternName: string, suite: NoiseSuite): string {
  return `Noise_${patternName}_${suite.dh.name}_${suite.cipher.name}_${suite.hash.name}`;
}

/** Parses `Noise_<pattern>_<dh>_<cipher>_<hash>`; undefined when any part is not implemented here. */
export function parseNoiseProtocolName(name: string): { pattern: HandshakePattern; suite: NoiseSuite } | undefined {
  const parts = name.split('_');
  if (parts.length !== 5 || parts[0] !== 'Noise') return undefined;
  const found = handshakePatterns[parts[1]!];
  const suite = suiteByNames(parts[2]!, parts[3]!, parts[4]!);
  return found && suite ? { pattern: found, suite } : undefined;
}

export interface HandshakeOptions {
  readonly pattern: HandshakePattern;
  readonly suite: NoiseSuite;
  readonly initiator: boolean;
  readonly prologue: Uint8Array;
  /** Local static key pair, when the pattern sends or pre-shares one. */
  readonly s?: KeyPair;
  /** Local ephemeral key pair: only tests fix it; otherwise it is generated from `randomBytes`. */
  readonly e?: KeyPair;
  /** Remote static public key known in advance (the K and I patterns' pre-message). */
  readonly rs?: Uint8Array;
  readonly re?: Uint8Array;
  readonly randomBytes?: (n: number) => Uint8Array;
}

interface TransportCiphers {
  readonly send: CipherState;
  readonly receive: CipherState;
}

export interface HandshakeState {
  /** True when the next handshake message is ours to write. */
  isMyTurn(): boolean;
  isComplete(): boolean;
  writeMessage(payload: Uint8Array): Uint8Array;
  /** Returns the payload; throws HandshakeError (and the state becomes unusable) on any failure. */
  readMessage(message: Uint8Array): Uint8Array;
  remoteStatic(): Uint8Array | undefined;
  remoteEphemeral(): Uint8Array | undefined;
  handshakeHash(): Uint8Array;
  /** The transport CipherStates; only once the handshake is complete. */
  split(): TransportCiphers;
}

export function createHandshakeState(options: HandshakeOptions): HandshakeState {
  const { pattern: hp, suite, initiator } = options;
  const dhBytes = suite.dh.dhBytes;
  const ss: SymmetricState = createSymmetricState(suite, noiseProtocolName(hp.name, suite));
  const s = options.s;
  let e = options.e;
  let rs = options.rs;
  let re = options.re;
  let index = 0;
  let failed = false;
  ss.mixHash(options.prologue);
  mixPreMessage(hp.initiatorPreMessage, initiator ? s : rs, initiator ? e : re);
  mixPreMessage(hp.responderPreMessage, initiator ? rs : s, initiator ? re : e);

  function mixPreMessage(tokens: readonly PreMessageToken[], staticKey: KeyPair | Uint8Array | undefined, ephemeral: KeyPair | Uint8Array | undefined): void {
    for (const token of tokens) {
      const key = token === 's' ? staticKey : ephemeral;
      assert(key !== undefined, `pattern ${hp.name} needs the pre-message key ${token}`);
      ss.mixHash(key instanceof Uint8Array ? key : key.publicKey);
    }
  }

  function dh(local: KeyPair | undefined, remote: Uint8Array | undefined, token: string): Uint8Array {
    assert(local !== undefined, `pattern ${hp.name} token ${token} needs a local key`);
    if (remote === undefined) throw new HandshakeError(`token ${token} before the remote key is known`);
    return suite.dh.dh(local.privateKey, remote);
  }

  /** The DH tokens, from this side's point of view (§5.3: es/se swap roles between initiator and responder). */
  function mixDh(token: 'ee' | 'es' | 'se' | 'ss'): void {
    if (token === 'ee') ss.mixKey(dh(e, re, token));
    else if (token === 'ss') ss.mixKey(dh(s, rs, token));
    else if ((token === 'es') === initiator) ss.mixKey(dh(e, rs, token));
    else ss.mixKey(dh(s, re, token));
  }

  function isMyTurn(): boolean {
    return index < hp.messages.length && (index % 2 === 0) === initiator;
  }

  function checkUsable(mine: boolean): readonly NoiseToken[] {
    assert(!failed, 'handshake state used after a failure');
    assert(index < hp.messages.length, 'handshake is already complete');
    assert(isMyTurn() === mine, mine ? 'not our turn to write' : 'not our turn to read');
    return hp.messages[index]!;
  }

  function writeMessage(payload: Uint8Array): Uint8Array {
    const tokens = checkUsable(true);
    const parts: Uint8Array[] = [];
    for (const token of tokens) {
      if (token === 'e') {
        if (e === undefined) {
          assert(options.randomBytes !== undefined, 'an ephemeral key needs randomBytes');
          e = suite.dh.generateKeyPair(options.randomBytes);
        }
        parts.push(e.publicKey);
        ss.mixHash(e.publicKey);
      } else if (token === 's') {
        assert(s !== undefined, `pattern ${hp.name} needs a local static key`);
        parts.push(ss.encryptAndHash(s.publicKey));
      } else {
        mixDh(token);
      }
    }
    parts.push(ss.encryptAndHash(payload));
    const message = concatBytes(...parts);
    assert(message.length <= noiseMessageBytesMax, `handshake message of ${message.length} bytes is over the Noise limit`);
    index += 1;
    return message;
  }

  function readTokens(tokens: readonly NoiseToken[], message: Uint8Array): Uint8Array {
    let offset = 0;
    const take = (n: number, what: string): Uint8Array => {
      if (offset + n > message.length) {
        throw new HandshakeError(`handshake message ${index} is ${message.length} bytes, too short for ${what}`);
      }
      const out = message.subarray(offset, offset + n);
      offset += n;
      return out;
    };
    for (const token of tokens) {
      if (token === 'e') {
        re = take(dhBytes, 'e').slice();
        ss.mixHash(re);
      } else if (token === 's') {
        const sealed = take(ss.hasKey() ? dhBytes + noiseTagBytes : dhBytes, 's');
        rs = ss.decryptAndHash(sealed).slice();
      } else {
        mixDh(token);
      }
    }
    const rest = message.subarray(offset);
    if (ss.hasKey() && rest.length < noiseTagBytes) {
      throw new HandshakeError(`handshake message ${index} is ${message.length} bytes, too short for the payload tag`);
    }
    return ss.decryptAndHash(rest);
  }

  function readMessage(message: Uint8Array): Uint8Array {
    const tokens = checkUsable(false);
    try {
      const payload = readTokens(tokens, message);
      index += 1;
      return payload;
    } catch (error) {
      failed = true;
      if (error instanceof HandshakeError) throw error;
      throw new HandshakeError(`handshake message ${index} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  return {
    isMyTurn,
    isComplete: () => index === hp.messages.length,
    writeMessage,
    readMessage,
    remoteStatic: () => rs,
    remoteEphemeral: () => re,
    handshakeHash: () => ss.handshakeHash(),
    split() {
      assert(index === hp.messages.length && !failed, 'split before the handshake is complete');
      const [c1, c2] = ss.split();
      // Drop the ephemeral private key: nothing needs it after the split, and forward secrecy wants it gone.
      e = undefined;
      return initiator ? { send: c1, receive: c2 } : { send: c2, receive: c1 };
    },
  };
}
