/**
 * Registered OAuth clients (`weft oauth client create`, docs/auth.md "OAuth clients"): an id, a name, exact redirect
 * URIs, the scopes the client may ask for, and the SHA-256 of its secret — or no secret for a public client (a
 * browser or native app), which must then use PKCE.
 */
import type { KvStore } from '../../src/storage/kv.ts';
import type { Clock } from '../../src/util/clock.ts';
import { oauthClientsMax, oauthRedirectUriCharsMax, oauthRedirectUrisPerClientMax } from '../../src/auth/auth-limits.ts';
import type { Scope } from '../../src/auth/scopes.ts';
import { ApiKeyError } from './api-keys.ts';
import { jsonTable } from './json-table.ts';
import { constantTimeEqual, newId, newSecret, sha256Hex } from './secrets.ts';

export interface OAuthClientInfo {
  readonly id: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly scopes: readonly Scope[];
  /** Public clients have no secret and must send a PKCE code_challenge. */
  readonly public: boolean;
  readonly createdAtMs: number;
}

interface OAuthClientRecord extends OAuthClientInfo {
  readonly secretHash: string | null;
}

export interface OAuthClientStore {
  create(options: { name: string; redirectUris: readonly string[]; scopes: readonly Scope[]; public?: boolean }): Promise<{ info: OAuthClientInfo; secret: string | null }>;
  get(id: string): OAuthClientInfo | undefined;
  list(): OAuthClientInfo[];
  delete(id: string): Promise<boolean>;
  /** A confidential client's secret matches (constant time); false for public clients. */
  checkSecret(id: string, secret: string): boolean;
}

/** RFC 6749 §3.1.2: absolute, no fragment; https, or http only to a loopback host (RFC 8252 §7.3). */
function checkRedirectUri(uri: string): void {
  if (uri.length > oauthRedirectUriCharsMax) throw new ApiKeyError(`a redirect URI has at most ${oauthRedirectUriCharsMax} characters`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ApiKeyError(`redirect URI '${uri}' is not an absolute URL`);
  }
  if (url.hash !== '' || uri.includes('#')) throw new ApiKeyError(`redirect URI '${uri}' must not have a fragment`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ApiKeyError(`redirect URI '${uri}' must be https (or http to localhost / 127.0.0.1 / [::1])`);
  }
}

const strip = ({ secretHash: _secret, ...info }: OAuthClientRecord): OAuthClientInfo => info;

export function createOAuthClientStore(kv: KvStore, clock: Clock): OAuthClientStore {
  const table = jsonTable<OAuthClientRecord>(kv, 'c');
  return {
    async create(options) {
      if (options.redirectUris.length === 0) throw new ApiKeyError('a client needs at least one --redirect-uri');
      if (options.redirectUris.length > oauthRedirectUrisPerClientMax) {
        throw new ApiKeyError(`a client has at most ${oauthRedirectUrisPerClientMax} redirect URIs, got ${options.redirectUris.length}`);
      }
      options.redirectUris.forEach(checkRedirectUri);
      if (options.scopes.length === 0) throw new ApiKeyError('a client needs at least one scope');
      if (table.count() >= oauthClientsMax) throw new ApiKeyError(`the node holds at most ${oauthClientsMax} OAuth clients`);
      const isPublic = options.public ?? false;
      const secret = isPublic ? null : newSecret('weft_cs_');
      const record: OAuthClientRecord = {
        id: newId(),
        name: options.name,
        redirectUris: [...options.redirectUris],
        scopes: [...options.scopes],
        public: isPublic,
        createdAtMs: clock.nowMs(),
        secretHash: secret === null ? null : sha256Hex(secret),
      };
      await table.put(record.id, record);
      return { info: strip(record), secret };
    },
    get(id) {
      const record = table.get(id);
      return record === undefined ? undefined : strip(record);
    },
    list: () => [...table.all()].map(([, r]) => strip(r)).sort((a, b) => a.createdAtMs - b.createdAtMs),
    async delete(id) {
      if (table.get(id) === undefined) return false;
      await table.delete(id);
      return true;
    },
    checkSecret(id, secret) {
      const record = table.get(id);
      return record?.secretHash != null && constantTimeEqual(record.secretHash, sha256Hex(secret));
    },
  };
}
