/**
 * Errors of the authenticated state map (src/state/trie.ts) and of its proofs. One class with a stable `reason`
 * beside the numeric code, so that callers branch on what went wrong without parsing messages: bad input from a
 * caller or peer is -32602, a node missing from the store (an unknown or pruned root) is -32000, and a stored node
 * that does not decode (a corrupt store) is -32603.
 */
import { ErrorCode, WeftError } from '../errors.ts';

export type StateErrorReason =
  /** An update key that is not 64 hex digits, a key of the wrong length, or two spellings of one key. */
  | 'bad-key'
  /** A value longer than stateValueBytesMax. */
  | 'value-too-large'
  /** The store holds no node under a hash the walk needs (unknown root, or pending nodes not in the overlay). */
  | 'node-missing'
  /** A stored node that does not decode. */
  | 'node-corrupt'
  /** Proof bytes or JSON that do not decode canonically. */
  | 'proof-malformed'
  /** A well-formed proof that does not prove anything about this key under this root. */
  | 'proof-invalid';

const codeOf: Record<StateErrorReason, number> = {
  'bad-key': ErrorCode.InvalidParams,
  'value-too-large': ErrorCode.InvalidParams,
  'node-missing': ErrorCode.ServerError,
  'node-corrupt': ErrorCode.InternalError,
  'proof-malformed': ErrorCode.InvalidParams,
  'proof-invalid': ErrorCode.InvalidParams,
};

export class StateError extends WeftError {
  readonly reason: StateErrorReason;

  constructor(reason: StateErrorReason, message: string, details?: unknown) {
    super(codeOf[reason] === ErrorCode.InvalidParams ? 'invalid_params' : codeOf[reason] === ErrorCode.ServerError ? 'state_missing' : 'storage', message, { details });
    this.reason = reason;
  }
}
