/**
 * Authorization codes, access tokens and refresh tokens (docs/auth.md "Tokens"). Decision: opaque tokens, stored as
 * their SHA-256, not JWTs — every request already reads the store (revocation must take effect at once, RFC 7009),
 * so a self-contained token would buy nothing and would need a deny-list anyway.
 *
 * Each approval is a grant; every token descends from one. Revoking a refresh token, reusing a code (RFC 6749
 * §4.1.2) or replaying a rotated refresh token (RFC 9700 §4.14.2) revokes the whole grant. Codes live in memory
 * (minutes); grants and tokens in the store, so they survive a restart.
 */
import type { KvStore } from '../../src/storage/kv.ts';
import type { Clock } from '../../src/util/clock.ts';
import {
  oauthAccessTokenLifetimeMs,
  oauthCodeLifetimeMs,
  oauthPendingCodesMax,
  oauthRefreshTokenLifetimeMs,
} from '../../src/auth/auth-limits.ts';
import { verifyS256 } from '../../src/auth/pkce.ts';
import type { Scope } from '../../src/auth/scopes.ts';
import { jsonTable } from './json-table.ts';
import { OAuthError } from './oauth-errors.ts';
import { newId, newSecret, sha256Hex } from './secrets.ts';

interface CodeRecord {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  readonly challenge: string | null;
  readonly expiresAtMs: number;
  readonly grantId: string;
  used: boolean;
}

interface TokenRecord {
  readonly kind: 'access' | 'refresh';
  readonly clientId: string;
  readonly scopes: readonly Scope[];
  readonly grantId: string;
  readonly expiresAtMs: number;
  /** A rotated refresh token: presenting it again is a replay. */
  readonly rotated?: boolean;
  readonly revoked?: boolean;
}

interface GrantRecord {
  readonly clientId: string;
  readonly createdAtMs: number;
  readonly revokedAtMs: number | null;
}

/** RFC 6749 §5.1. */
interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

type AccessCheck =
  | { readonly ok: true; readonly clientId: string; readonly scopes: readonly Scope[] }
  | { readonly ok: false; readonly reason: 'invalid_token' | 'token_expired' };

interface IssueCodeRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  readonly challenge: string | null;
}

export interface OAuthGrants {
  issueCode(request: IssueCodeRequest): string;
  redeemCode(code: string, clientId: string, redirectUri: string, verifier: string | undefined): Promise<TokenResponse>;
  refresh(refreshToken: string, clientId: string, scopes: readonly Scope[] | undefined): Promise<TokenResponse>;
  /** RFC 7009: unknown tokens are not an error; another client's token is. */
  revoke(token: string, clientId: string): Promise<void>;
  checkAccess(token: string): AccessCheck;
  /** Drops expired codes and tokens (the node runs this hourly). */
  prune(): Promise<number>;
}

export function createOAuthGrants(kv: KvStore, clock: Clock): OAuthGrants {
  const tokens = jsonTable<TokenRecord>(kv, 't');
  const grants = jsonTable<GrantRecord>(kv, 'g');
  const codes = new Map<string, CodeRecord>();

  const grantLive = (grantId: string): boolean => {
    const grant = grants.get(grantId);
    return grant !== undefined && grant.revokedAtMs === null;
  };
  const revokeGrant = async (grantId: string): Promise<void> => {
    const grant = grants.get(grantId);
    if (grant && grant.revokedAtMs === null) await grants.put(grantId, { ...grant, revokedAtMs: clock.nowMs() });
  };

  const mint = async (clientId: string, scopes: readonly Scope[], grantId: string, extra: Parameters<typeof kv.write>[0] = []): Promise<TokenResponse> => {
    const now = clock.nowMs();
    const access = newSecret('weft_at_');
    const refresh = newSecret('weft_rt_');
    await kv.write([
      ...extra,
      tokens.putOp(sha256Hex(access), { kind: 'access', clientId, scopes, grantId, expiresAtMs: now + oauthAccessTokenLifetimeMs }),
      tokens.putOp(sha256Hex(refresh), { kind: 'refresh', clientId, scopes, grantId, expiresAtMs: now + oauthRefreshTokenLifetimeMs }),
    ]);
    return { access_token: access, token_type: 'Bearer', expires_in: oauthAccessTokenLifetimeMs / 1000, refresh_token: refresh, scope: scopes.join(' ') };
  };

  const pruneCodes = (): void => {
    const now = clock.nowMs();
    for (const [hash, code] of codes) if (code.expiresAtMs <= now) codes.delete(hash);
  };

  return {
    issueCode(request) {
      pruneCodes();
      if (codes.size >= oauthPendingCodesMax) throw new OAuthError('invalid_request', 'too many authorizations in progress; try again in a minute');
      const code = newSecret('weft_code_');
      codes.set(sha256Hex(code), { ...request, expiresAtMs: clock.nowMs() + oauthCodeLifetimeMs, grantId: newId(16), used: false });
      return code;
    },

    async redeemCode(code, clientId, redirectUri, verifier) {
      const record = codes.get(sha256Hex(code));
      if (record === undefined || record.expiresAtMs <= clock.nowMs()) throw new OAuthError('invalid_grant', 'the authorization code is unknown or expired');
      if (record.clientId !== clientId) throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
      if (record.used) {
        // RFC 6749 §4.1.2: a code used twice revokes what it already granted.
        await revokeGrant(record.grantId);
        throw new OAuthError('invalid_grant', 'the authorization code was already used; its tokens are revoked');
      }
      if (record.redirectUri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the one in the authorization request');
      if (record.challenge !== null) {
        if (verifier === undefined) throw new OAuthError('invalid_grant', 'code_verifier is required: the authorization request carried a code_challenge');
        if (!verifyS256(verifier, record.challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (S256)');
      } else if (verifier !== undefined) {
        throw new OAuthError('invalid_grant', 'code_verifier sent, but the authorization request carried no code_challenge');
      }
      record.used = true;
      const grant: GrantRecord = { clientId, createdAtMs: clock.nowMs(), revokedAtMs: null };
      return mint(clientId, record.scopes, record.grantId, [grants.putOp(record.grantId, grant)]);
    },

    async refresh(refreshToken, clientId, scopes) {
      const hash = sha256Hex(refreshToken);
      const record = tokens.get(hash);
      if (record === undefined || record.kind !== 'refresh' || record.revoked) throw new OAuthError('invalid_grant', 'the refresh token is unknown or revoked');
      if (record.clientId !== clientId) throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
      if (record.rotated) {
        await revokeGrant(record.grantId);
        throw new OAuthError('invalid_grant', 'the refresh token was already used; the grant is revoked');
      }
      if (record.expiresAtMs <= clock.nowMs() || !grantLive(record.grantId)) throw new OAuthError('invalid_grant', 'the refresh token expired or its grant was revoked');
      const narrowed = scopes ?? record.scopes;
      const wider = narrowed.filter((s) => !record.scopes.includes(s));
      if (wider.length > 0) throw new OAuthError('invalid_scope', `scope ${wider.join(' ')} was not granted (RFC 6749 §6)`);
      return mint(clientId, narrowed, record.grantId, [tokens.putOp(hash, { ...record, rotated: true })]);
    },

    async revoke(token, clientId) {
      const hash = sha256Hex(token);
      const record = tokens.get(hash);
      if (record === undefined) return;
      if (record.clientId !== clientId) throw new OAuthError('unauthorized_client', 'the token was issued to another client');
      await tokens.put(hash, { ...record, revoked: true });
      // RFC 7009 §2.1: revoking a refresh token also ends the access tokens of the same grant.
      if (record.kind === 'refresh') await revokeGrant(record.grantId);
    },

    checkAccess(token) {
      const record = tokens.get(sha256Hex(token));
      if (record === undefined || record.kind !== 'access' || record.revoked || !grantLive(record.grantId)) return { ok: false, reason: 'invalid_token' };
      if (record.expiresAtMs <= clock.nowMs()) return { ok: false, reason: 'token_expired' };
      return { ok: true, clientId: record.clientId, scopes: record.scopes };
    },

    async prune() {
      pruneCodes();
      const now = clock.nowMs();
      const stale = [...tokens.all()].filter(([, t]) => t.expiresAtMs <= now || t.revoked).map(([hash]) => tokens.deleteOp(hash));
      if (stale.length > 0) await kv.write(stale);
      return stale.length;
    },
  };
}
