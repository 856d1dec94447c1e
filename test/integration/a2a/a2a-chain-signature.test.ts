// Chain-signature auth (agent seed "Chain signature rules"): valid, wrong signer, expired, future-dated, replayed
// nonce, nonce evicted after 10,000 newer entries, a bad signature not consuming the nonce — on the verifier and
// end to end over HTTP (JSON-RPC) and the signed-bytes layout pinned by a vector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chainSignatureDigest,
  createChainSignatureVerifier,
  createNonceCache,
  signChainRequest,
  type AgentKeyReader,
  type ChainSignature,
} from '../../../src/a2a/chain-signature.ts';
import { chainSigHeaders } from '../../../src/a2a/auth.ts';
import { A2aError } from '../../../src/a2a/errors.ts';
import { a2aNonceCacheEntriesMax } from '../../../src/a2a/limits.ts';
import { createKvTaskStore } from '../../../src/a2a/task-store.ts';
import { encodeAddress, standardAddress } from '../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { startA2aServer, type A2aTestServer } from '../../helpers/a2a-fixtures.ts';

const chainId = 1338;
const alice = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const mallory = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const aliceAccount = standardAddress(publicKeyFromPrivate(alice));
const aux = new Uint8Array(32);
const nowSec = 1_800_000_000;
const request = { method: 'POST', path: '/a2a', body: new TextEncoder().encode('{"jsonrpc":"2.0"}') };

function signed(overrides: Partial<Omit<ChainSignature, 'value'>> = {}, key = alice, req = request): ChainSignature {
  const fields = { signer: 'Owner' as const, account: aliceAccount, timestamp: BigInt(nowSec), nonce: 1n, ...overrides };
  return { ...fields, value: signChainRequest(chainId, fields, req, key, aux) };
}

function code(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    if (e instanceof A2aError) return e.code;
    throw e;
  }
  return 0;
}

describe('chain signature verifier', () => {
  const make = (opts: { agentKeys?: AgentKeyReader; capacity?: number } = {}) => {
    const clock = createManualClock(nowSec * 1000);
    const cache = createNonceCache(opts.capacity);
    const verifier = createChainSignatureVerifier({ chainId, clock, nonceCache: cache, allowedSigners: ['Owner', 'Controller', 'SessionKey'], ...(opts.agentKeys ? { agentKeys: opts.agentKeys } : {}) });
    return { clock, cache, verifier };
  };

  it('pins the signed bytes: domain, chain id, signer, account, key id, timestamp, nonce, method, path, body hash', () => {
    const digest = chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 2n }, request);
    expect(toHex(digest)).toHaveLength(64);
    const changes = [
      chainSignatureDigest(1, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 2n }, request),
      chainSignatureDigest(chainId, { signer: 'Controller', account: aliceAccount, timestamp: 1n, nonce: 2n }, request),
      chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 2n, nonce: 2n }, request),
      chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 3n }, request),
      chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 2n, sessionKeyId: 1n }, request),
      chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 2n }, { ...request, method: 'GET' }),
      chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 2n }, { ...request, path: '/a2a?x' }),
      chainSignatureDigest(chainId, { signer: 'Owner', account: aliceAccount, timestamp: 1n, nonce: 2n }, { ...request, body: new Uint8Array(1) }),
    ].map(toHex);
    expect(new Set([toHex(digest), ...changes]).size).toBe(changes.length + 1);
  });

  it('accepts a valid Owner signature and returns the account', () => {
    const { verifier } = make();
    expect(verifier.verify(signed(), request)).toEqual(aliceAccount);
  });

  it('refuses a signature by another key (wrong signer) with -32101', () => {
    const { verifier } = make();
    expect(code(() => verifier.verify(signed({}, mallory), request))).toBe(-32101);
  });

  it('refuses a signature over another request', () => {
    const { verifier } = make();
    expect(code(() => verifier.verify(signed(), { ...request, path: '/a2a/other' }))).toBe(-32101);
  });

  it('refuses an expired timestamp (older than the TTL, default 5 min) and a future-dated one', () => {
    const { verifier } = make();
    expect(code(() => verifier.verify(signed({ timestamp: BigInt(nowSec - 301) }), request))).toBe(-32101);
    expect(verifier.verify(signed({ timestamp: BigInt(nowSec - 299), nonce: 5n }), request)).toEqual(aliceAccount);
    expect(code(() => verifier.verify(signed({ timestamp: BigInt(nowSec + 120), nonce: 6n }), request))).toBe(-32101);
  });

  it('honours a configured TTL', () => {
    const verifier = createChainSignatureVerifier({ chainId, clock: createManualClock(nowSec * 1000), ttlSec: 10 });
    expect(code(() => verifier.verify(signed({ timestamp: BigInt(nowSec - 11) }), request))).toBe(-32101);
  });

  it('refuses a replayed nonce', () => {
    const { verifier } = make();
    const sig = signed({ nonce: 42n });
    verifier.verify(sig, request);
    expect(code(() => verifier.verify(sig, request))).toBe(-32101);
  });

  it('verifies the signature before storing the nonce: a bad signature does not consume it', () => {
    const { verifier, cache } = make();
    expect(code(() => verifier.verify(signed({ nonce: 7n }, mallory), request))).toBe(-32101);
    expect(cache.size).toBe(0);
    expect(verifier.verify(signed({ nonce: 7n }), request)).toEqual(aliceAccount);
  });

  it('evicts the least recently used nonce after 10,000 newer entries, so it verifies again', () => {
    const { verifier, cache } = make();
    verifier.verify(signed({ nonce: 1n }), request);
    expect(code(() => verifier.verify(signed({ nonce: 1n }), request))).toBe(-32101);
    for (let i = 0; i < a2aNonceCacheEntriesMax - 1; i++) cache.add(`other:${i}`);
    expect(code(() => verifier.verify(signed({ nonce: 1n }), request))).toBe(-32101); // still held (and refreshed)
    for (let i = 0; i < a2aNonceCacheEntriesMax; i++) cache.add(`newer:${i}`);
    expect(cache.size).toBe(a2aNonceCacheEntriesMax);
    expect(verifier.verify(signed({ nonce: 1n }), request)).toEqual(aliceAccount);
  });

  it('Controller and SessionKey need an agent account: -32100 without one, -32102 for an expired session key, -32103 frozen', () => {
    const { verifier } = make();
    expect(code(() => verifier.verify(signed({ signer: 'Controller' }), request))).toBe(-32100);
    const controller = Uint8Array.from({ length: 32 }, (_, i) => 99 - i);
    let frozen = false;
    const keys: AgentKeyReader = {
      controllerKey: () => publicKeyFromPrivate(controller),
      sessionKey: (_a, id) => (id === 1n ? { publicKey: publicKeyFromPrivate(controller), expired: true } : undefined),
      frozen: () => frozen,
    };
    const withKeys = make({ agentKeys: keys }).verifier;
    expect(withKeys.verify(signed({ signer: 'Controller', nonce: 9n }, controller), request)).toEqual(aliceAccount);
    expect(code(() => withKeys.verify(signed({ signer: 'Controller', nonce: 10n }, alice), request))).toBe(-32101);
    expect(code(() => withKeys.verify(signed({ signer: 'SessionKey', sessionKeyId: 1n, nonce: 11n }, controller), request))).toBe(-32102);
    frozen = true;
    expect(code(() => withKeys.verify(signed({ signer: 'Controller', nonce: 12n }, controller), request))).toBe(-32103);
  });

  it('refuses a signer the scheme does not allow', () => {
    const verifier = createChainSignatureVerifier({ chainId, clock: createManualClock(nowSec * 1000) });
    expect(code(() => verifier.verify(signed({ signer: 'SessionKey', sessionKeyId: 1n }), request))).toBe(-32100);
  });
});

describe('chain signature over HTTP', () => {
  let s: A2aTestServer;
  const clock = createManualClock(nowSec * 1000);
  beforeAll(async () => {
    s = await startA2aServer({ auth: { required: true, hrp: 'rweft', chainSignature: createChainSignatureVerifier({ chainId, clock }) } });
  });
  afterAll(() => s.close());

  const call = (body: string, nonce: bigint, key = alice, pathSigned = '/a2a') => {
    const bytes = new TextEncoder().encode(body);
    const fields = { signer: 'Owner' as const, account: aliceAccount, timestamp: BigInt(nowSec), nonce };
    const value = signChainRequest(chainId, fields, { method: 'POST', path: pathSigned, body: bytes }, key, aux);
    return fetch(`${s.base}/a2a`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'a2a-version': '1.0',
        [chainSigHeaders.signer]: 'Owner',
        [chainSigHeaders.account]: encodeAddress('rweft', aliceAccount),
        [chainSigHeaders.value]: value,
        [chainSigHeaders.timestamp]: String(nowSec),
        [chainSigHeaders.nonce]: String(nonce),
      },
      body,
    });
  };

  it('authenticates a signed request as the chain account, refuses a replay and a wrong key with 401 / -32101', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'c1', role: 'ROLE_USER', parts: [{ text: 'complete' }] } } });
    const ok = await call(body, 100n);
    expect(ok.status).toBe(200);
    const taskId = (await ok.json()).result.task.id;
    const stored = createKvTaskStore(s.kv).get(taskId)!;
    expect(stored.owner).toBe(`chain:${encodeAddress('rweft', aliceAccount)}`);
    const replay = await call(body, 100n);
    expect(replay.status).toBe(401);
    expect((await replay.json()).error.code).toBe(-32101);
    const wrong = await call(body, 101n, mallory);
    expect((await wrong.json()).error.code).toBe(-32101);
    const otherPath = await call(body, 102n, alice, '/v1/a2a');
    expect((await otherPath.json()).error.code).toBe(-32101);
    expect((await call(body, 101n)).status).toBe(200);
  });
});
