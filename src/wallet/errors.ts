/** Wallet errors, each with the seed code its boundary maps to. */
import { WeftError } from '../errors.ts';

export type WalletParamReason = 'bad_name' | 'not_in_wallet' | 'not_standard' | 'bad_mnemonic' | 'too_many' | 'bad_request';

/** -32602: a request the wallet cannot act on (bad name, an address it does not hold, a malformed option). */
export class WalletParamError extends WeftError {
  constructor(reason: WalletParamReason, message: string) {
    super('invalid_params', message, { details: { reason } });
  }
}

/** -32001 Unauthorized: the passphrase does not open this keystore (or its header was altered). */
export class WalletPassphraseError extends WeftError {
  constructor(name: string) {
    super('unauthorized', `wallet "${name}": wrong passphrase, or the keystore was altered`);
  }
}

/** -32603: a keystore file that is not a Weft keystore of a version this code reads. */
export class KeystoreFormatError extends WeftError {
  constructor(message: string) {
    super('internal', `keystore: ${message}`);
  }
}
