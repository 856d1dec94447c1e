/**
 * OAuth 2.0 error responses (RFC 6749 §5.2, RFC 7009 §2.2.1): `{error, error_description}` with status 400, or 401
 * for invalid_client. Kept apart from JSON-RPC errors: these endpoints speak OAuth, not JSON-RPC.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_token_type';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  constructor(error: OAuthErrorCode, description: string) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
  }

  get status(): 400 | 401 {
    return this.error === 'invalid_client' ? 401 : 400;
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}
