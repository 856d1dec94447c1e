/**
 * Who is calling: the security schemes the agent card declares (A2A 1.0 §4.5 / the agent seed "Authentication") and
 * the check of one request's credentials against them. Transport-neutral: each binding hands in an `AuthInput`
 * (headers, query, cookies, the bytes a chain signature covers, the TLS peer). Token-issuing schemes (OAuth 2.0,
 * OIDC) are verified through ports the node supplies — its own /oauth authorization server — never here.
 *
 * Order: chain signature headers, then `Authorization` (Bearer, Basic), then the API key, then the TLS client
 * certificate. Credentials that are present but wrong always fail (never fall back to anonymous); no credentials
 * at all give the anonymous principal unless the endpoint requires authentication (one per anonymous key,
 * anonymous.ts). Served by a node, a request is
 * authenticated once: the node's identity (X-API-Key, Bearer) is the principal (`principalOf`), and only the
 * A2A-only schemes (chain signature, mTLS) are checked here.
 */
import type { Identity } from '../auth/identity.ts';
import { decodeAddress, encodeAddress } from '../crypto/address.ts';
import type { WeftError } from '../errors.ts';
import { anonymousKeyHeader, anonymousPrincipal, isAnonymousKey } from './anonymous.ts';
import { A2aError, unauthenticated } from './errors.ts';
import { chainSigners, type ChainSignatureVerifier, type ChainSigner, type SignedRequest } from './chain-signature.ts';
import type { Principal } from './principal.ts';

export const anonymous: Principal = Object.freeze({ id: 'anonymous', scheme: 'anonymous', scopes: [] });

export interface AuthInput extends SignedRequest {
  header(name: string): string | undefined;
  query(name: string): string | undefined;
  cookie(name: string): string | undefined;
  /** The verified TLS client certificate's SHA-256 fingerprint, on the mTLS port. */
  readonly tlsPeerFingerprint?: string;
}

interface ApiKeyConfig {
  readonly location: 'header' | 'query' | 'cookie';
  readonly name: string;
  /** key → principal name. */
  readonly keys: ReadonlyMap<string, string>;
}

interface OAuthConfig {
  /** RFC 8414 metadata URL of the node's authorization server. */
  readonly metadataUrl: string;
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly scopes: Readonly<Record<string, string>>;
}

export interface A2aAuthConfig {
  /** When true, a request without credentials is refused (401); otherwise it runs as `anonymous`. */
  readonly required: boolean;
  readonly apiKey?: ApiKeyConfig;
  /** Verifies a bearer token (an OAuth access token or a JWT from the OIDC provider). */
  readonly bearer?: (token: string) => Promise<Principal | undefined>;
  readonly basic?: (user: string, password: string) => Promise<Principal | undefined>;
  readonly oauth?: OAuthConfig;
  readonly openIdConnectUrl?: string;
  /** mTLS is offered on the TLS port; the binding passes the verified peer fingerprint. */
  readonly mtls?: boolean;
  readonly chainSignature?: ChainSignatureVerifier;
  /** bech32m prefix of addresses in `A2A-Chain-Account`. */
  readonly hrp?: string;
}

/** Request headers of the chain signature scheme (docs/a2a.md "Chain signature"). */
export const chainSigHeaders = {
  signer: 'a2a-chain-signer',
  account: 'a2a-chain-account',
  value: 'a2a-chain-signature',
  timestamp: 'a2a-chain-timestamp',
  nonce: 'a2a-chain-nonce',
  sessionKeyId: 'a2a-chain-session-key-id',
} as const;

const u64 = /^[0-9]{1,20}$/;

function chainPrincipal(input: AuthInput, config: A2aAuthConfig, verifier: ChainSignatureVerifier): Principal {
  const h = (n: string) => input.header(n)?.trim();
  const signer = h(chainSigHeaders.signer);
  const accountText = h(chainSigHeaders.account);
  const value = h(chainSigHeaders.value);
  const ts = h(chainSigHeaders.timestamp);
  const nonce = h(chainSigHeaders.nonce);
  const sessionKeyId = h(chainSigHeaders.sessionKeyId);
  const bad = (m: string) => new A2aError('chain_signature_invalid', m);
  if (!signer || !(chainSigners as readonly string[]).includes(signer)) throw bad(`${chainSigHeaders.signer}: expected Owner, Controller or SessionKey`);
  if (!accountText || !value || !ts || !nonce) throw bad('chain signature: signer, account, signature, timestamp and nonce headers are all required');
  if (!u64.test(ts) || !u64.test(nonce) || (sessionKeyId !== undefined && !u64.test(sessionKeyId))) throw bad('timestamp, nonce, session key id: expected unsigned integers');
  let account: Uint8Array;
  try {
    account = decodeAddress(accountText, config.hrp ?? '');
  } catch {
    throw new A2aError('chain_identity_verification_failed', `${chainSigHeaders.account}: not an address of this network`);
  }
  const verified = verifier.verify(
    {
      signer: signer as ChainSigner,
      account,
      value,
      timestamp: BigInt(ts),
      nonce: BigInt(nonce),
      ...(sessionKeyId === undefined ? {} : { sessionKeyId: BigInt(sessionKeyId) }),
    },
    input,
  );
  return { id: `chain:${encodeAddress(config.hrp ?? '', verified)}`, scheme: 'chainSignature', scopes: [] };
}

async function authorizationPrincipal(header: string, config: A2aAuthConfig): Promise<Principal> {
  const space = header.indexOf(' ');
  const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer' && config.bearer) {
    const principal = await config.bearer(value);
    if (principal) return principal;
    throw unauthenticated('bearer token: not valid');
  }
  if (scheme === 'basic' && config.basic) {
    let decoded = '';
    try {
      decoded = atob(value);
    } catch {
      throw unauthenticated('basic credentials: not base64');
    }
    const colon = decoded.indexOf(':');
    const principal = colon === -1 ? undefined : await config.basic(decoded.slice(0, colon), decoded.slice(colon + 1));
    if (principal) return principal;
    throw unauthenticated('basic credentials: not valid');
  }
  throw unauthenticated(`authorization scheme ${scheme}: not offered by this agent`);
}

/**
 * The node's caller as an A2A principal (src/auth/identity.ts): an API key of the node is `apikey:<key id>`, an OAuth
 * access token of its authorization server `bearer:<client id>`, with the scopes they grant. Anonymous callers have
 * no principal of their own here: the A2A-only schemes (chain signature, mTLS) may still name one.
 */
function principalOf(identity: Identity): Principal | undefined {
  const scopes = [...identity.scopes];
  if (identity.tier === 'api_key') return { id: `apikey:${identity.id.replace(/^key:/, '')}`, scheme: 'apiKey', scopes };
  if (identity.tier === 'oauth') return { id: `bearer:${identity.id.replace(/^oauth:/, '')}`, scheme: 'bearer', scopes };
  return undefined;
}

/**
 * What the node already knows of the request's caller, when A2A is served by a node whose access control
 * authenticated it (server/auth/authenticate.ts): its identity, or the credential failure. A2A then reads it instead
 * of checking the same credentials a second time.
 */
export interface NodeCaller {
  readonly identity: Identity;
  readonly error?: WeftError;
}

/** The principal of one request, or an error (-32000 UNAUTHENTICATED, or -32100…-32103 for chain signatures). */
export async function authenticate(input: AuthInput, config: A2aAuthConfig, node?: NodeCaller): Promise<Principal> {
  if (config.chainSignature && input.header(chainSigHeaders.value) !== undefined) return chainPrincipal(input, config, config.chainSignature);
  if (node !== undefined) {
    // Authenticated once, by the node: its failure is A2A's (401, UNAUTHENTICATED), its identity A2A's principal.
    if (node.error) throw node.error;
    const principal = principalOf(node.identity);
    return principal ?? uncredentialedCaller(input, config);
  }
  const authorization = input.header('authorization');
  if (authorization !== undefined && authorization !== '') return authorizationPrincipal(authorization, config);
  const key = config.apiKey;
  if (key) {
    const given = key.location === 'header' ? input.header(key.name.toLowerCase()) : key.location === 'query' ? input.query(key.name) : input.cookie(key.name);
    if (given !== undefined) {
      const name = key.keys.get(given);
      if (name === undefined) throw unauthenticated(`${key.name}: unknown API key`);
      return { id: `apikey:${name}`, scheme: 'apiKey', scopes: [] };
    }
  }
  return uncredentialedCaller(input, config);
}

/** A request with no credential the node or A2A knows: its TLS client certificate, else refused or anonymous. */
function uncredentialedCaller(input: AuthInput, config: A2aAuthConfig): Principal {
  if (config.mtls && input.tlsPeerFingerprint) return { id: `mtls:${input.tlsPeerFingerprint}`, scheme: 'mtls', scopes: [] };
  if (config.required) throw unauthenticated('authentication required: see securitySchemes in the agent card');
  return anonymousCaller(input);
}

/** A caller without credentials: the holder of the anonymous key it sends, else the bare `anonymous` (anonymous.ts). */
function anonymousCaller(input: AuthInput): Principal {
  const key = input.header(anonymousKeyHeader)?.trim();
  if (key === undefined || key === '') return anonymous;
  if (!isAnonymousKey(key)) throw unauthenticated(`${anonymousKeyHeader}: expected 22 to 128 base64url characters (at least 128 bits)`);
  return anonymousPrincipal(key);
}
