/**
 * Access control for one node (docs/auth.md): the auth store at `<datadir>/auth` (API keys, OAuth clients, grants,
 * tokens — all hashed), the api.cookie admin key, the signature replay cache, the rate limiter, and the middleware
 * and routes built over them. The composition root creates one and hands its pieces to the HTTP and WebSocket
 * servers; tests build one over an in-memory store.
 */
import { join } from 'node:path';
import type { Hono, MiddlewareHandler } from 'hono';
import { createRateLimiter, type RateLimiter } from '../../src/auth/token-bucket.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import type { Clock } from '../../src/util/clock.ts';
import { openLmdbStore } from '../storage/lmdb-store.ts';
import { ensureApiCookie, type ApiCookie } from './api-cookie.ts';
import { createApiKeyStore, type ApiKeyStore } from './api-keys.ts';
import { accessMiddleware, createAdmission, type Admit } from './admission.ts';
import type { AuthenticateOptions } from './authenticate.ts';
import { createOAuthClientStore, type OAuthClientStore } from './oauth-clients.ts';
import { createOAuthGrants, type OAuthGrants } from './oauth-grants.ts';
import { mountOAuthRoutes } from './oauth-routes.ts';
import { createSignatureVerifier, type SignatureVerifier } from './request-signature.ts';
import { createDeadline, type Deadline } from './request-bounds.ts';
import { isWebAppFile } from '../http/web-app.ts';

/** The auth store is small: a few thousand records. */
const authStoreMapBytes = 256 * 1024 * 1024;

export interface AccessControl {
  readonly keys: ApiKeyStore;
  readonly clients: OAuthClientStore;
  readonly grants: OAuthGrants;
  readonly signatures: SignatureVerifier;
  /** Undefined with `rate-limits=false`: no surface (HTTP, WebSocket, gRPC) meters its callers. */
  readonly limiter: RateLimiter | undefined;
  readonly authOptions: AuthenticateOptions;
  /** The access step of one request (authenticate, then a rate token): the JSON-RPC listener calls it directly. */
  readonly admit: Admit;
  /** The per-request time limit (504). */
  readonly deadline: Deadline;
  /** admit → deadline as Hono middleware: put on '*' before any route (the 504 then carries the rate-limit headers). */
  readonly middleware: readonly MiddlewareHandler[];
  /** /oauth/* and /.well-known/oauth-authorization-server. */
  mountRoutes(app: Hono): void;
  close(): Promise<void>;
}

export interface AccessControlOptions {
  readonly kv: KvStore;
  readonly clock: Clock;
  readonly issuer?: string;
  readonly trustProxy?: boolean;
  readonly explorerPaths?: readonly string[];
  /** Per-request time limit (30 s). */
  readonly timeoutMs?: number;
  /** False drops the rate limiter and its headers (config `rate-limits=false`: private nodes, benchmarks). */
  readonly rateLimits?: boolean;
}

export function createAccessControl(options: AccessControlOptions): AccessControl {
  const { kv, clock } = options;
  const keys = createApiKeyStore(kv, clock);
  const clients = createOAuthClientStore(kv, clock);
  const grants = createOAuthGrants(kv, clock);
  const signatures = createSignatureVerifier({ clock });
  const limiter = options.rateLimits === false ? undefined : createRateLimiter({ clock });
  const authOptions: AuthenticateOptions = { keys, grants, signatures, ...(options.trustProxy ? { trustProxy: true } : {}) };
  const admit = createAdmission({
    auth: authOptions,
    explorerPaths: options.explorerPaths ?? [],
    unmetered: isWebAppFile,
    ...(limiter === undefined ? {} : { limiter }),
  });
  const deadline = createDeadline(options.timeoutMs);
  return {
    keys,
    clients,
    grants,
    signatures,
    limiter,
    authOptions,
    admit,
    deadline,
    middleware: [accessMiddleware(admit, deadline)],
    mountRoutes: (app) => mountOAuthRoutes(app, { keys, clients, grants, ...(options.issuer ? { issuer: options.issuer } : {}) }),
    close: () => kv.close(),
  };
}

/** The node's store at `<datadir>/auth` (LMDB: the CLI can add keys while the node runs). */
export function openAuthStore(datadir: string): KvStore {
  return openLmdbStore(join(datadir, 'auth'), { mapSizeBytes: authStoreMapBytes });
}

/** Opens the node's access control and makes sure api.cookie holds a live admin key. */
export async function openNodeAccessControl(
  datadir: string,
  clock: Clock,
  options: Omit<AccessControlOptions, 'kv' | 'clock'> = {},
): Promise<{ access: AccessControl; cookie: ApiCookie }> {
  const access = createAccessControl({ ...options, kv: openAuthStore(datadir), clock });
  const cookie = await ensureApiCookie(datadir, access.keys);
  return { access, cookie };
}
