/**
 * Checks a node's `get_proof` answer (docs/api.md) against a header this light client verified itself: the proof
 * must name a block in the client's own verified DAG, carry exactly that header's state root, and its Merkle path
 * must hash to that root for the record's key, which this client derives itself from the namespace and id
 * (`verifyStateRecord`, src/state/proof-verify.ts). `verifyRecordProof` does that for any namespace of
 * src/state/namespaces.ts; `verifyAccountProof` is its account case. Only then is the account read out of
 * the proof — never from the node's plain-text `account` figures, which are ignored: they are the node's virtual
 * view (the tip's own mergeset applied), one step past the state root the tip's header commits to (docs/state.md),
 * so they may differ from the proven figures. And the block must be current (src/light/freshness.ts): on the tab's
 * selected chain within proofTipDistanceBlocksMax of its tip — an old-but-verified block's state is a replay, refused
 * as 'proof-stale'. Anything else throws LightProofError: the caller shows an error, never a balance.
 */
import { decodeAddress } from '../crypto/address.ts';
import { DecodeError } from '../errors.ts';
import { emptyStoredAccount } from '../state/account-codec.ts';
import type { StateNamespaceName, StateRecord } from '../state/namespaces.ts';
import { proofFromJson } from '../state/proof.ts';
import { verifyStateRecord } from '../state/proof-verify.ts';
import { equalBytes, fromHex, toHash0x } from '../util/bytes.ts';
import { LightProofError } from './errors.ts';
import { assertFresh, type FreshnessChain } from './freshness.ts';
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
  /** The header's timestamp (ms) and how far below the tab's tip it was when checked (src/light/freshness.ts). */
  readonly timestampMs: number;
  readonly blocksBehindTip: number;
  /** False for an address the state has never seen (an absence proof). */
  readonly exists: boolean;
}

/** A record of any namespace, read out of a proof checked against a verified header. */
export interface VerifiedRecord<N extends StateNamespaceName = StateNamespaceName> {
  readonly namespace: N;
  /** False: the proof proves the record absent. */
  readonly exists: boolean;
  /** The decoded record (null when absent). */
  readonly record: StateRecord<N> | null;
  /** The proven value bytes, version byte first (null when absent). */
  readonly value: Uint8Array | null;
  /** The verified header the proof was checked against. */
  readonly blockHash: string;
  readonly blockHeight: number;
  readonly stateRoot: string;
  readonly timestampMs: number;
  readonly blocksBehindTip: number;
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

/**
 * Checks a `get_proof` answer for record `id` (its natural id, e.g. a binary address) of `namespace` against this
 * client's verified headers. Throws LightProofError: 'header-unknown', 'proof-stale' (a verified block, but not the
 * selected chain near its tip), 'root-mismatch', 'proof-invalid' (the proof
 * does not check out for this namespace's key of `id`), 'record-unreadable' (it does, but the value is in a record
 * version this client does not decode: upgrade it).
 */
export function verifyRecordProof<N extends StateNamespaceName>(
  chain: FreshnessChain,
  namespace: N,
  id: Uint8Array,
  answer: unknown,
): VerifiedRecord<N> {
  const a = answer as ProofAnswer;
  const blockHash = proofHashBytes(a?.block_hash, 'block_hash');
  const stateRoot = proofHashBytes(a?.state_root, 'state_root');
  const block = chain.get(toHash0x(blockHash).slice(2));
  if (!block) {
    throw new LightProofError('header-unknown', `the proof is against block ${toHash0x(blockHash)}, which this light node has not verified (yet)`);
  }
  const fresh = assertFresh(chain, block, `the ${namespace} proof`);
  if (!equalBytes(block.header.stateRoot, stateRoot)) {
    throw new LightProofError('root-mismatch', `the proof's state root ${toHash0x(stateRoot)} is not the verified header's ${toHash0x(block.header.stateRoot)}`);
  }
  let result;
  try {
    // Our own key derivation from (namespace, id): a proof about another key must not answer for this record.
    result = verifyStateRecord({ stateRoot: block.header.stateRoot, namespace, id, proof: proofFromJson(a.proof) });
  } catch (cause) {
    if (cause instanceof DecodeError) {
      throw new LightProofError('record-unreadable', `the proven ${namespace} record does not decode here: ${cause.message}`, cause);
    }
    throw new LightProofError('proof-invalid', `the state proof does not check out: ${(cause as Error).message}`, cause);
  }
  return {
    namespace,
    exists: result.exists,
    record: result.exists ? result.record : null,
    value: result.exists ? result.value : null,
    blockHash: toHash0x(block.hash),
    blockHeight: block.height,
    stateRoot: toHash0x(stateRoot),
    timestampMs: fresh.timestampMs,
    blocksBehindTip: fresh.blocksBehindTip,
  };
}

/** The account case of verifyRecordProof: an address's balance, nonce and energy as the verified header commits them. */
export function verifyAccountProof(chain: FreshnessChain & Pick<LightChain, 'params'>, address: string, answer: unknown): VerifiedAccount {
  const verified = verifyRecordProof(chain, 'account', decodeAddress(address, chain.params.hrp), answer);
  const account = verified.record ?? emptyStoredAccount;
  return {
    address, balance: account.balance, nonce: account.nonce, energy: account.energy, exists: verified.exists,
    blockHash: verified.blockHash, blockHeight: verified.blockHeight, stateRoot: verified.stateRoot,
    timestampMs: verified.timestampMs, blocksBehindTip: verified.blocksBehindTip,
  };
}
