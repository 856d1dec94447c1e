/**
 * Signs an agent or escrow transaction (wallets, the node's agent, tests): the signer's BIP340 signature over the
 * signing hash of its body (src/kinds/signing.ts). The key must be the envelope's `signer`.
 */
import { publicKeyFromPrivate, schnorrSign } from '../../crypto/keys.ts';
import { equalBytes } from '../../util/bytes.ts';
import { InvalidTransactionError } from '../errors.ts';
import type { TxKindModule } from '../kind.ts';
import { signingHashOfBody } from '../signing.ts';
import type { AgentTransaction, UnsignedAgentTransaction } from './envelope.ts';

/** `auxRand`: 32 fresh random bytes (BIP340 aux). */
export function signAgentTransaction<K extends number, P>(
  kind: TxKindModule<AgentTransaction<K, P>>,
  tx: UnsignedAgentTransaction<K, P>,
  privateKey: Uint8Array,
  auxRand: Uint8Array,
): AgentTransaction<K, P> {
  if (!equalBytes(publicKeyFromPrivate(privateKey), tx.signer)) {
    throw new InvalidTransactionError('signAgentTransaction: the private key is not the transaction signer');
  }
  const body = kind.encodeBody(tx as AgentTransaction<K, P>);
  return { ...tx, signature: schnorrSign(signingHashOfBody(body), privateKey, auxRand) } as AgentTransaction<K, P>;
}
