/**
 * Which bucket a request draws from (the seed's Limits table, docs/auth.md "Rate limits"). The tier comes from the
 * credentials (none, X-API-Key, Bearer); the surface from where the request landed. Unauthenticated clients get the
 * seed's per-surface limits; authenticated clients get their tier's rate on every HTTP surface, and on WebSocket
 * at least the public WebSocket allowance.
 */
import type { RatePolicy } from './token-bucket.ts';

export type Tier = 'anonymous' | 'api_key' | 'oauth';
/** rpc: /api/v1/rpc, /rpc, REST and every other HTTP route; public_rpc: POST / (method + params only). */
export type Surface = 'rpc' | 'public_rpc' | 'explorer' | 'ws';

const policy = (name: string, perMinute: number, burst: number): RatePolicy => ({ name, perMinute, burst });

export const ratePolicies = {
  unauthenticated: policy('unauthenticated', 100, 100),
  apiKey: policy('api_key', 1_000, 1_000),
  oauth: policy('oauth', 5_000, 5_000),
  publicRpc: policy('public_rpc', 100, 200),
  publicWebSocket: policy('public_websocket', 1_000, 2_000),
  explorer: policy('explorer', 60, 120),
  /** Authenticated WebSocket messages: the API-key rate with the public WebSocket's burst. */
  apiKeyWebSocket: policy('api_key_websocket', 1_000, 2_000),
} as const;

export function ratePolicyFor(tier: Tier, surface: Surface): RatePolicy {
  if (tier === 'oauth') return ratePolicies.oauth;
  if (tier === 'api_key') return surface === 'ws' ? ratePolicies.apiKeyWebSocket : ratePolicies.apiKey;
  switch (surface) {
    case 'public_rpc':
      return ratePolicies.publicRpc;
    case 'explorer':
      return ratePolicies.explorer;
    case 'ws':
      return ratePolicies.publicWebSocket;
    default:
      return ratePolicies.unauthenticated;
  }
}
