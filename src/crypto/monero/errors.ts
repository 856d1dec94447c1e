/**
 * The two ways privacy cryptography refuses input (docs/privacy.md "Strict decoding"). Both use the existing
 * `privacy_error` kind (-40006, HTTP 422) of src/errors.ts: a malformed stealth key, a torsioned point or a tampered
 * proof is a privacy failure of the caller's transaction, not a codec fault of the node.
 */
import { WeftError } from '../../errors.ts';

/** Bytes that are no valid scalar, point, key image or proof layout (non-canonical, small order, torsioned, length). */
export class PrivacyEncodingError extends WeftError {
  constructor(message: string, details?: unknown) {
    super('privacy_error', message, { details });
  }
}

/** A well-formed proof or signature that does not verify; `reason` names the check that failed. */
export class PrivacyProofError extends WeftError {
  readonly reason: string;

  constructor(reason: string, message: string, details?: unknown) {
    super('privacy_error', message, { details });
    this.reason = reason;
  }
}
