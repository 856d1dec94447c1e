/** Errors of transaction kinds: a value that cannot be encoded, and a tag no kind module claims. */
import { DecodeError, WeftError } from '../errors.ts';
import { txKindName } from '../codec/transaction-kinds.ts';
import type { InvalidAddressError } from '../crypto/address.ts';

/** A transaction value that cannot be encoded (a field out of range). Code -32602 (InvalidParams). */
export class InvalidTransactionError extends WeftError {
  constructor(message: string) {
    super('invalid_params', message);
  }
}

/**
 * A kind tag with no module in this protocol version: unassigned, or reserved for a later kind. Decoding refuses it
 * (unknown kinds are invalid, never ignored); `details.reason` says which.
 */
export class UnknownTxKindError extends DecodeError {
  readonly tag: number;
  constructor(tag: number, implemented: string) {
    const name = txKindName(tag);
    super(
      name === undefined
        ? `transaction kind: got unknown tag ${tag}, expected ${implemented}`
        : `transaction kind: got ${tag} (${name}), reserved but not valid in this protocol version`,
      { reason: name === undefined ? 'unknown_kind' : 'reserved_kind', tag },
    );
    this.tag = tag;
  }
}

/**
 * An address field that does not decode (unknown type byte, bad length). A DecodeError to the codec and to block
 * validation; admission answers the seed's -40002 with the address error it carries.
 */
export class AddressDecodeError extends DecodeError {
  readonly address: InvalidAddressError;
  constructor(message: string, address: InvalidAddressError) {
    super(message);
    this.address = address;
  }
}
