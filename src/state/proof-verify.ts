/**
 * The light-client side of state proofs: checks a proof for one key against a state root from a verified header
 * (`verifyProof`), or for one record of a namespace by its natural id (`verifyStateRecord`: the key derived here,
 * the proven value decoded with the namespace's codec). Pure (hashing, byte helpers and the namespace
 * declarations), so a browser tab runs it unchanged. It answers what the proof proves or throws StateError
 * ('proof-malformed' or 'proof-invalid'); it never answers from a proof that does not hash to the root. Hashing
 * rules: trie-hash.ts; proof layout: proof.ts and docs/state-trie.md; namespaces: namespaces.ts.
 */
import { StateError } from './state-errors.ts';
import { checkProofShape, type StateProof } from './proof.ts';
import { stateNamespace, type StateNamespaceName, type StateRecord } from './namespaces.ts';
import {
  defaultStateHash,
  hashInternal,
  hashLeaf,
  hashValue,
  keyBit,
  sharePrefix,
  stateHashBytes,
  stateKeyBytes,
  type StateHash,
} from './trie-hash.ts';
import { equalBytes, toHex } from '../util/bytes.ts';

export type StateProofResult = { readonly exists: true; readonly value: Uint8Array } | { readonly exists: false };

function invalid(message: string, key: Uint8Array): StateError {
  return new StateError('proof-invalid', message, { key: toHex(key) });
}

/** Folds a subtree hash at depth `siblings.length` up to the root along `key`'s path. */
function foldToRoot(hash: StateHash, key: Uint8Array, siblings: readonly Uint8Array[], bottom: Uint8Array): Uint8Array {
  let node = bottom;
  for (let depth = siblings.length - 1; depth >= 0; depth--) {
    const sibling = siblings[depth]!;
    node = keyBit(key, depth) === 0 ? hashInternal(hash, node, sibling) : hashInternal(hash, sibling, node);
  }
  return node;
}

/**
 * What `proof` proves about `key` under `root`: `{ exists: true, value }` or `{ exists: false }`. Throws StateError
 * when the proof is malformed, is about another key, or does not hash to `root`.
 */
export function verifyProof(
  root: Uint8Array,
  key: Uint8Array,
  proof: StateProof,
  hash: StateHash = defaultStateHash,
): StateProofResult {
  if (root.length !== stateHashBytes) {
    throw new StateError('bad-key', `state root has ${root.length} bytes, expected ${stateHashBytes}`);
  }
  if (key.length !== stateKeyBytes) {
    throw new StateError('bad-key', `state key has ${key.length} bytes, expected ${stateKeyBytes}`);
  }
  checkProofShape(proof);
  const depth = proof.siblings.length;
  let bottom: Uint8Array;
  if (proof.kind === 'inclusion') {
    bottom = hashLeaf(hash, key, hashValue(hash, proof.value));
  } else if (proof.kind === 'absence-leaf') {
    // A leaf with the queried key would make this an inclusion: answering "absent" from it would be a wrong answer.
    if (equalBytes(proof.leafKey, key)) {
      throw invalid(`absence proof ends in the queried key's own leaf ${toHex(key)}`, key);
    }
    if (!sharePrefix(proof.leafKey, key, depth)) {
      throw invalid(`absence proof's leaf ${toHex(proof.leafKey)} is not on the key's path at depth ${depth}`, key);
    }
    bottom = hashLeaf(hash, proof.leafKey, proof.leafValueHash);
  } else {
    bottom = new Uint8Array(stateHashBytes); // the empty hash (emptyStateRoot), fresh so nothing can alter it
  }
  const computed = foldToRoot(hash, key, proof.siblings, bottom);
  if (!equalBytes(computed, root)) {
    throw invalid(`${proof.kind} proof hashes to root ${toHex(computed)}, expected ${toHex(root)}`, key);
  }
  return proof.kind === 'inclusion' ? { exists: true, value: proof.value.slice() } : { exists: false };
}

export interface StateRecordProofInput<N extends StateNamespaceName> {
  /** The state root of a header the caller verified itself. */
  readonly stateRoot: Uint8Array;
  readonly namespace: N;
  /** The record's natural id (an address for `account`; see namespaces.ts): the key is derived here, never taken. */
  readonly id: Uint8Array;
  readonly proof: StateProof;
  /**
   * What the caller was told the stored value is, when it wants that checked: bytes (the proof must include
   * exactly them) or null (the proof must prove absence). Left out: the value is read from the proof.
   */
  readonly value?: Uint8Array | null;
  readonly hash?: StateHash;
}

export type VerifiedStateRecord<N extends StateNamespaceName> =
  | {
      readonly exists: true;
      readonly namespace: N;
      readonly key: Uint8Array;
      /** The proven value, version byte first. */
      readonly value: Uint8Array;
      readonly record: StateRecord<N>;
    }
  | { readonly exists: false; readonly namespace: N; readonly key: Uint8Array };

/**
 * Checks a namespaced record against a state root: derives the record's key from `namespace` and `id` (so a proof
 * about another namespace's key, or another id, does not verify), checks the proof (`verifyProof`), compares the
 * proven value with `value` when given, and decodes a present value with the namespace's codec. Throws StateError
 * ('bad-key' for an id of the wrong length, 'proof-malformed', 'proof-invalid'), or DecodeError when the proven
 * value is in a version this code does not read (details.reason 'record-version-unknown' or 'namespace-reserved').
 */
export function verifyStateRecord<N extends StateNamespaceName>(input: StateRecordProofInput<N>): VerifiedStateRecord<N> {
  const namespace = stateNamespace(input.namespace);
  const key = namespace.key(input.id);
  const result = verifyProof(input.stateRoot, key, input.proof, input.hash);
  if (input.value !== undefined) {
    const claimed = input.value;
    if (claimed === null ? result.exists : !result.exists || !equalBytes(result.value, claimed)) {
      const proven = result.exists ? `value ${toHex(result.value)}` : 'absence';
      const told = claimed === null ? 'absence' : `value ${toHex(claimed)}`;
      throw invalid(`${input.namespace} record: the proof proves ${proven}, not the claimed ${told}`, key);
    }
  }
  if (!result.exists) return { exists: false, namespace: input.namespace, key };
  return { exists: true, namespace: input.namespace, key, value: result.value, record: namespace.codec.decode(result.value) };
}
