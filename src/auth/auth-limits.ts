/**
 * Bounds of access control (docs/auth.md): rate-limit windows, signature windows, token lifetimes and the sizes of
 * every store and cache the auth layer keeps. Unit last, as in src/limits.ts.
 */

/** The seed's limits are "per minute": every token bucket refills over this period. */
export const rateLimitWindowMs = 60_000;
/** Buckets remembered at once (one per client identity and surface); the least recently used is dropped first. */
export const rateLimitBucketsMax = 100_000;

/** X-Timestamp may be at most this far from the node's clock, either way (docs/design.md "Node APIs and access": 5 minutes). */
export const hmacTimestampWindowMs = 5 * 60_000;
/** Signatures remembered to refuse replays; each lives as long as its timestamp is inside that period. */
export const hmacReplayCacheEntriesMax = 100_000;
/** X-Signature is a hex HMAC-SHA256: exactly 64 hex digits. */
export const hmacSignatureHexChars = 64;

/** Authorization codes are single-use and short-lived (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const oauthCodeLifetimeMs = 2 * 60_000;
export const oauthAccessTokenLifetimeMs = 60 * 60_000;
export const oauthRefreshTokenLifetimeMs = 30 * 24 * 60 * 60_000;
/** Authorization codes issued and not yet expired. */
export const oauthPendingCodesMax = 10_000;
/** RFC 7636 §4.1: a code_verifier is 43 to 128 unreserved characters. */
export const pkceVerifierCharsMin = 43;
export const pkceVerifierCharsMax = 128;
/** OAuth form bodies (/oauth/authorize POST, /oauth/token, /oauth/revoke). Else 413. */
export const oauthFormBytesMax = 16 * 1024;
/** `state` and other free-text OAuth parameters. */
export const oauthParamCharsMax = 512;
/** Registered OAuth clients and their redirect URIs. */
export const oauthClientsMax = 1_000;
export const oauthRedirectUrisPerClientMax = 10;
export const oauthRedirectUriCharsMax = 2_000;

/** API keys stored (admin cookie keys included). */
export const apiKeysMax = 10_000;

/**
 * How long a verified API key is trusted from memory before its stored record is read again: the bound on how late a
 * revocation by the CLI (another process) takes effect. A revocation through the node itself is immediate.
 */
export const apiKeyRecheckMs = 1_000;
/** A key's label. */
export const apiKeyLabelCharsMax = 100;

/** The seed's reference client timeout: the node gives up on a request after this long (504). */
export const requestTimeoutMs = 30_000;

/**
 * WebSocket messages refused for the rate limit before the connection is closed with 1008: a client that keeps
 * sending after being told to slow down is abusive, one that overshoots a little is not.
 */
export const wsRateLimitStrikesMax = 50;
