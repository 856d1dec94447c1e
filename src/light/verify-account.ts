/**
 * Checks a node's `get_proof` answer (docs/api.md) against a header this light client verified itself: the proof
 * must name a block in the client's own verified DAG, carry exactly that header's state root, and its Merkle path
 * (src/state/proof-verify.ts) must hash to that root for this address's key. Only then is the account read out of
 * the proof — never from the node's plain-text `account` figures, which are ignored: they are the node's virtual
 * view (the tip's own mergeset applied), one step past the state root the tip's header commits to (docs/state.md),
 * so they may differ from the proven figures. Anything else throws LightProofError: the caller shows an error,
 * never a balance.
 */
import { decodeAddress } from '../crypto/address.ts';
import { accountKey, decodeAccount, emptyStoredAccount } from '../state/account-codec.ts';
import { proofFromJson } from '../state/proof.ts';
import { verifyProof } from '../state/proof-verify.ts';
import { equalBytes, fromHex, toHash0x } from '../util/bytes.ts';
import { LightProofError } from './errors.ts';
import type { LightChain } from './light-chain.ts';

export interface VerifiedAccount {
  readonly address: string;
  /** Base units (1 coin = 10^8). */
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly energy: bigint;
  /** The verified header the proof was checked against. */
  readonly blockHash: string;
  readonly blockHeight: number;
  readonly stateRoot: string;
  /** False for an address the state has never seen (an absence proof). */
  readonly exists: boolean;
}

interface ProofAnswer {
  readonly state_root: string;
  readonly block_hash: string;
  readonly proof: unknown;
}

/** A 0x-hash field of a proof answer as bytes; anything else is LightProofError 'proof-invalid'. */
export function proofHashBytes(hex: unknown, what: string): Uint8Array {
  if (typeof hex !== 'string' || !/^0x[0-9a-f]{64}$/.test(hex)) throw new LightProofError('proof-invalid', `${what} is not a 0x-hash: ${String(hex).slice(0, 80)}`);
  return fromHex(hex.slice(2));
}

export function verifyAccountProof(chain: Pick<LightChain, 'get' | 'params'>, address: string, answer: unknown): VerifiedAccount {
  const a = answer as ProofAnswer;
  const addressBytes = decodeAddress(address, chain.params.hrp);
  const blockHash = proofHashBytes(a?.block_hash, 'block_hash');
  const stateRoot = proofHashBytes(a?.state_root, 'state_root');
  const block = chain.get(toHash0x(blockHash).slice(2));
  if (!block) {
    throw new LightProofError('header-unknown', `the proof is against block ${toHash0x(blockHash)}, which this light node has not verified (yet)`);
  }
  if (!equalBytes(block.header.stateRoot, stateRoot)) {
    throw new LightProofError('root-mismatch', `the proof's state root ${toHash0x(stateRoot)} is not the verified header's ${toHash0x(block.header.stateRoot)}`);
  }
  let result;
  try {
    // Our own key derivation: a proof about another key must not answer for this address.
    result = verifyProof(block.header.stateRoot, accountKey(addressBytes), proofFromJson(a.proof));
  } catch (cause) {
    throw new LightProofError('proof-invalid', `the state proof does not check out: ${(cause as Error).message}`, cause);
  }
  const account = result.exists ? decodeAccount(result.value) : emptyStoredAccount;
  return {
    address, balance: account.balance, nonce: account.nonce, energy: account.energy, exists: result.exists,
    blockHash: toHash0x(block.hash), blockHeight: block.height, stateRoot: toHash0x(stateRoot),
  };
}
