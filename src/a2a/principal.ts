/**
 * Who a request runs as, whatever scheme proved it (auth.ts checks the credentials; anonymous.ts mints the keys of
 * callers without any). Its own file so both import it without importing each other.
 */
export interface Principal {
  /** Stable id: `anonymous` (no key), `anonymous:<key hash>`, `apikey:<name>`, `bearer:<subject>`, `basic:<user>`, `mtls:<fingerprint>`, `chain:<address>`. */
  readonly id: string;
  readonly scheme: 'anonymous' | 'apiKey' | 'bearer' | 'basic' | 'mtls' | 'chainSignature';
  readonly scopes: readonly string[];
}
