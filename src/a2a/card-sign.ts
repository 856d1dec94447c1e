/**
 * Agent Card signatures (A2A 1.0 §8.4): a JWS (RFC 7515) with a detached payload — the JCS canonical card without
 * its `signatures` — carried as {protected, signature}. The protected header names `alg`, `kid` and `typ: "JOSE"`.
 * jose runs on WebCrypto, so this works in Node and in browsers alike.
 */
import { base64url, flattenedVerify, FlattenedSign, type CryptoKey, type KeyObject, type JWK } from 'jose';
import { canonicalJson, type AgentCard, type AgentCardSignature } from './card.ts';

type SigningKey = CryptoKey | KeyObject | JWK | Uint8Array;

const payloadOf = (card: AgentCard): Uint8Array => {
  const { signatures: _ignored, ...unsigned } = card;
  return new TextEncoder().encode(canonicalJson(unsigned));
};

export async function signAgentCard(card: AgentCard, key: SigningKey, options: { alg: string; kid: string; jku?: string }): Promise<AgentCard> {
  const header = { alg: options.alg, kid: options.kid, typ: 'JOSE', ...(options.jku ? { jku: options.jku } : {}) };
  const jws = await new FlattenedSign(payloadOf(card)).setProtectedHeader(header).sign(key);
  const signature: AgentCardSignature = { protected: jws.protected!, signature: jws.signature };
  return { ...card, signatures: [...(card.signatures ?? []), signature] };
}

/** True when some signature of the card verifies under `key`. */
export async function verifyAgentCard(card: AgentCard, key: SigningKey): Promise<boolean> {
  // A detached payload goes back in as base64url (the header does not set b64: false).
  const payload = base64url.encode(payloadOf(card));
  for (const sig of card.signatures ?? []) {
    try {
      await flattenedVerify({ protected: sig.protected, signature: sig.signature, payload }, key);
      return true;
    } catch {
      // try the next signature
    }
  }
  return false;
}
