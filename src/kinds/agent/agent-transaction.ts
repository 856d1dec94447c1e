/**
 * What every agent transaction carries (the envelope) and the transaction's shape: apart from the envelope's codec
 * (envelope.ts) so the authority rules (authority.ts), which envelope.ts applies, can name it without an import cycle.
 */
import type { AnyTransaction } from '../kind.ts';

export const SignerRole = { Key: 0, Controller: 1, SessionKey: 2 } as const;
export type SignerRole = (typeof SignerRole)[keyof typeof SignerRole];

export interface AgentEnvelope {
  readonly chainId: number;
  /** Standard address whose account nonce the transaction uses and that pays its amount and fee. */
  readonly payer: Uint8Array;
  readonly signerRole: SignerRole;
  /** The x-only public key whose signature authorises it. */
  readonly signer: Uint8Array;
  readonly sessionKeyId: bigint;
  readonly fee: bigint;
  readonly nonce: bigint;
  /** Pay the fee from the payer agent account's energy pool (any other payer: its account energy). */
  readonly useEnergy: boolean;
}

export interface AgentTransaction<K extends number = number, P = unknown> extends AgentEnvelope, AnyTransaction {
  readonly kind: K;
  readonly payload: P;
  readonly signature: Uint8Array;
}
export type UnsignedAgentTransaction<K extends number = number, P = unknown> = Omit<AgentTransaction<K, P>, 'signature'>;
