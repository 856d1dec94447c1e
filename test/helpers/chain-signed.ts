// A2A chain-signature headers for a request (docs/a2a.md "Chain signature"), for tests that call a node as a client.
import { chainSigHeaders } from '../../src/a2a/auth.ts';
import { signChainRequest, type ChainSigner } from '../../src/a2a/chain-signature.ts';
import { encodeAddress } from '../../src/crypto/address.ts';

let nonce = BigInt(Date.now()) * 1000n;

export function chainSignedHeaders(options: {
  chainId: number;
  hrp: string;
  signer: ChainSigner;
  account: Uint8Array;
  key: Uint8Array;
  body: string;
  path?: string;
  sessionKeyId?: bigint;
}): Record<string, string> {
  const timestamp = BigInt(Math.floor(Date.now() / 1000));
  const n = ++nonce;
  const fields = { signer: options.signer, account: options.account, timestamp, nonce: n, ...(options.sessionKeyId === undefined ? {} : { sessionKeyId: options.sessionKeyId }) };
  const value = signChainRequest(options.chainId, fields, { method: 'POST', path: options.path ?? '/a2a', body: new TextEncoder().encode(options.body) }, options.key, new Uint8Array(32));
  return {
    [chainSigHeaders.signer]: options.signer,
    [chainSigHeaders.account]: encodeAddress(options.hrp, options.account),
    [chainSigHeaders.value]: value,
    [chainSigHeaders.timestamp]: String(timestamp),
    [chainSigHeaders.nonce]: String(n),
    ...(options.sessionKeyId === undefined ? {} : { [chainSigHeaders.sessionKeyId]: String(options.sessionKeyId) }),
  };
}
