/**
 * The chain-signature security scheme (agent seed, "Chain signature rules"; docs/a2a.md "Chain signature").
 * A client signs each request with the key of a chain account; the server checks the timestamp window, the
 * signer's key, the BIP340 signature and only then the single-use nonce — so a bad signature never burns a nonce.
 *
 * Signed bytes (all integers little-endian):
 *
 *   digest = BLAKE3( "weft/a2a/chain-sig/v1"           21 bytes, ASCII
 *                  | chain_id        u32
 *                  | signer          u8    0 Owner, 1 Controller, 2 SessionKey
 *                  | account         [33]  binary address (type byte + 32-byte payload)
 *                  | session_key_id  u64   0 when absent
 *                  | timestamp       u64   Unix seconds
 *                  | nonce           u64
 *                  | method_len u8  | method   upper-case ASCII ("POST", "GET", "GRPC")
 *                  | path_len   u16 | path     UTF-8, the request target as sent (path and query)
 *                  | BLAKE3(body)    [32]  the raw request body (empty body: BLAKE3 of zero bytes) )
 *   value  = hex( BIP340 Schnorr signature over digest )   128 hex digits, optional 0x
 *
 * The Owner key is the key of the signer's standard address (an agent account is its owner's address, so this is
 * also the on-chain owner). Controller and SessionKey keys come from the `AgentKeyReader` port — on a node, the agent
 * account's record in the committed state (server/a2a/node-a2a.ts): no agent account -32100, a session key that
 * expired or was revoked -32102, a frozen account -32103 (any signer of it), a key that does not verify -32101.
 */
import { addressBytes, AddressType } from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import { schnorrSign, schnorrVerify } from '../crypto/keys.ts';
import { concatBytes, fromHex, strip0x, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { A2aError } from './errors.ts';
import { a2aChainSigFutureSkewSec, a2aChainSigTtlSecDefault, a2aNonceCacheEntriesMax } from './limits.ts';

export const chainSigners = ['Owner', 'Controller', 'SessionKey'] as const;
export type ChainSigner = (typeof chainSigners)[number];
/** The card's spelling of the signers (seed: `allowedSigners` of `owner`, `controller`, `session-key`). */
export const cardSignerNames: Record<ChainSigner, string> = { Owner: 'owner', Controller: 'controller', SessionKey: 'session-key' };

export interface ChainSignature {
  readonly signer: ChainSigner;
  /** 33-byte binary address of the account the signer acts for. */
  readonly account: Uint8Array;
  /** Hex BIP340 signature. */
  readonly value: string;
  readonly timestamp: bigint;
  readonly nonce: bigint;
  readonly sessionKeyId?: bigint;
}

export interface SignedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Uint8Array;
}

interface SessionKey {
  readonly publicKey: Uint8Array;
  /** Past its expiry (on chain: at or after its `expiry_daa_score` at the node's state), so it no longer signs. */
  readonly expired: boolean;
  /** Revoked by the account: refused like an expired key. */
  readonly revoked?: boolean;
}

/** Agent-account keys, read from the on-chain agent account (the node) or handed in (tests). */
export interface AgentKeyReader {
  controllerKey(account: Uint8Array): Uint8Array | undefined;
  sessionKey(account: Uint8Array, id: bigint): SessionKey | undefined;
  frozen(account: Uint8Array): boolean;
}

const domainTag = new TextEncoder().encode('weft/a2a/chain-sig/v1');
const enc = new TextEncoder();
const u64Max = (1n << 64n) - 1n;

function le(value: bigint | number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let v = BigInt(value);
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The 32-byte digest a chain signature signs (layout above). */
export function chainSignatureDigest(chainId: number, sig: Omit<ChainSignature, 'value'>, request: SignedRequest): Uint8Array {
  const method = enc.encode(request.method.toUpperCase());
  const path = enc.encode(request.path);
  if (method.length > 255 || path.length > 0xffff) throw new RangeError('method or path too long to sign');
  return blake3(
    concatBytes(
      domainTag,
      le(chainId, 4),
      Uint8Array.of(chainSigners.indexOf(sig.signer)),
      sig.account,
      le(sig.sessionKeyId ?? 0n, 8),
      le(sig.timestamp, 8),
      le(sig.nonce, 8),
      Uint8Array.of(method.length),
      method,
      le(path.length, 2),
      path,
      blake3(request.body),
    ),
  );
}

/** An LRU set of used (account, nonce) pairs: a hit refreshes the entry, the least recently used one leaves first. */
export interface NonceCache {
  /** True (and refreshed) when the pair was seen. */
  seen(key: string): boolean;
  add(key: string): void;
  readonly size: number;
}

export function createNonceCache(capacity: number = a2aNonceCacheEntriesMax): NonceCache {
  const entries = new Set<string>();
  return {
    seen(key) {
      if (!entries.has(key)) return false;
      entries.delete(key);
      entries.add(key);
      return true;
    },
    add(key) {
      entries.delete(key);
      entries.add(key);
      if (entries.size > capacity) entries.delete(entries.values().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}

export interface ChainSignatureVerifierOptions {
  readonly chainId: number;
  readonly clock: Clock;
  readonly ttlSec?: number;
  readonly allowedSigners?: readonly ChainSigner[];
  readonly agentKeys?: AgentKeyReader;
  readonly nonceCache?: NonceCache;
}

export interface ChainSignatureVerifier {
  readonly chainId: number;
  readonly allowedSigners: readonly ChainSigner[];
  /** Returns the verified account on success; throws -32100…-32103 otherwise. Consumes the nonce only on success. */
  verify(sig: ChainSignature, request: SignedRequest): Uint8Array;
}

const invalid = (message: string) => new A2aError('chain_signature_invalid', message);

export function createChainSignatureVerifier(options: ChainSignatureVerifierOptions): ChainSignatureVerifier {
  const ttlSec = options.ttlSec ?? a2aChainSigTtlSecDefault;
  const allowed = options.allowedSigners ?? ['Owner'];
  const cache = options.nonceCache ?? createNonceCache();

  function signerKey(sig: ChainSignature): Uint8Array {
    const keys = options.agentKeys;
    if (sig.signer === 'Owner') {
      // No agent accounts yet: the owner key is the key of the signer's standard address.
      if (sig.account[0] !== AddressType.Standard) throw new A2aError('chain_identity_verification_failed', 'owner: expected a standard address');
      return sig.account.subarray(1);
    }
    if (!keys) throw new A2aError('chain_identity_verification_failed', `${sig.signer}: no agent account on chain for this address`);
    if (sig.signer === 'Controller') {
      const key = keys.controllerKey(sig.account);
      if (!key) throw new A2aError('chain_identity_verification_failed', 'controller: no agent account or controller');
      return key;
    }
    if (sig.sessionKeyId === undefined) throw invalid('SessionKey signer: session key id missing');
    const session = keys.sessionKey(sig.account, sig.sessionKeyId);
    if (!session) throw new A2aError('chain_identity_verification_failed', `session key ${sig.sessionKeyId}: unknown`);
    if (session.revoked === true) throw new A2aError('chain_session_key_expired', `session key ${sig.sessionKeyId}: revoked`);
    if (session.expired) throw new A2aError('chain_session_key_expired', `session key ${sig.sessionKeyId}: expired`);
    return session.publicKey;
  }

  return {
    chainId: options.chainId,
    allowedSigners: allowed,
    verify(sig, request) {
      if (!allowed.includes(sig.signer)) throw new A2aError('chain_identity_verification_failed', `signer ${sig.signer}: not allowed here (allowed: ${allowed.join(', ')})`);
      if (sig.account.length !== addressBytes) throw invalid(`account: expected ${addressBytes} bytes`);
      if (sig.timestamp < 0n || sig.timestamp > u64Max || sig.nonce < 0n || sig.nonce > u64Max) throw invalid('timestamp and nonce: expected u64');
      const nowSec = Math.floor(options.clock.nowMs() / 1000);
      const ts = Number(sig.timestamp);
      if (ts < nowSec - ttlSec) throw invalid(`timestamp ${ts}: expired (older than ${ttlSec} s)`);
      if (ts > nowSec + a2aChainSigFutureSkewSec) throw invalid(`timestamp ${ts}: in the future (more than ${a2aChainSigFutureSkewSec} s ahead)`);
      if (options.agentKeys?.frozen(sig.account)) throw new A2aError('chain_account_frozen', 'agent account is frozen');
      const key = signerKey(sig);
      let signature: Uint8Array;
      try {
        signature = fromHex(strip0x(sig.value));
      } catch {
        throw invalid('value: expected a hex signature');
      }
      if (!schnorrVerify(signature, chainSignatureDigest(options.chainId, sig, request), key)) throw invalid('signature does not verify');
      // Only a verified signature may touch the nonce cache (seed rule 5).
      const nonceKey = `${toHex(sig.account)}:${sig.nonce}`;
      if (cache.seen(nonceKey)) throw invalid(`nonce ${sig.nonce}: already used`);
      cache.add(nonceKey);
      return sig.account;
    },
  };
}

/** Client side: the hex value for a request (wallets and agents that call a Weft agent use this). */
export function signChainRequest(
  chainId: number,
  sig: Omit<ChainSignature, 'value'>,
  request: SignedRequest,
  privateKey: Uint8Array,
  auxRand: Uint8Array,
): string {
  return toHex(schnorrSign(chainSignatureDigest(chainId, sig, request), privateKey, auxRand));
}
