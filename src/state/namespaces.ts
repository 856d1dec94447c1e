/**
 * The namespaces of the state trie (docs/state.md "Namespaces"): one trie, one root in every header, and typed
 * records under it, each namespace declared here once — its name, its key tag, how a key is derived from the
 * record's natural id, and the codec of its values. Keys and values follow src/state/state-record.ts:
 * key = BLAKE3(tag ‖ id), value = version u8 ‖ body.
 *
 * | name                  | tag                                  | natural id                                  |
 * |-----------------------|--------------------------------------|---------------------------------------------|
 * | `account`             | weft/state/account/v1                | binary address (33 bytes)                   |
 * | `agent`               | weft/state/agent/v1                  | the agent account's binary address (33)     |
 * | `escrow`              | weft/state/escrow/v1                 | escrow id (32)                              |
 * | `contract_code`       | weft/state/contract-code/v1          | BLAKE3 of the code (32)                     |
 * | `contract_storage`    | weft/state/contract-storage/v1       | contract address (33) ‖ slot (32)           |
 * | `key_image`           | weft/state/key-image/v1              | key image, an ed25519 point (32)            |
 * | `confidential_output` | weft/state/confidential-output/v1    | output id = its one-time key (32)           |
 *
 * `account` (its key is exactly the one every existing state root was built with), `agent` and `escrow`
 * (src/kinds/agent, src/kinds/escrow), `contract_code` and `contract_storage` (src/vm/contract-state.ts,
 * docs/contracts.md "State layout"), `key_image` and `confidential_output` (src/kinds/confidential/records.ts) hold
 * records, each written only by its kinds. A reserved namespace (none is, in this version) would have its tag and id fixed so that proofs of absence about it
 * are already meaningful, and a codec that refuses every value (DecodeError 'namespace-reserved') until the issue that
 * gives it a record layout lands — nothing stores or invents their data before then. A kind that adds state declares
 * its namespace here (docs/architecture.md "Adding a transaction kind").
 *
 * Pure: light clients derive keys and decode proven values with it (src/state/proof-verify.ts verifyStateRecord).
 */
import { addressBytes } from '../crypto/address.ts';
import { agentRecordVersion, decodeAgentRecord, encodeAgentRecord, type AgentRecord } from '../kinds/agent/agent-record.ts';
import { decodeEscrowRecord, encodeEscrowRecord, escrowRecordVersion, type EscrowRecord } from '../kinds/escrow/escrow-record.ts';
import {
  confidentialOutputRecordVersion,
  decodeConfidentialOutputRecord,
  decodeKeyImageRecord,
  encodeConfidentialOutputRecord,
  encodeKeyImageRecord,
  keyImageRecordVersion,
  type ConfidentialOutputRecord,
  type KeyImageRecord,
} from '../kinds/confidential/records.ts';
import type { RecordNamespace } from '../kinds/kind.ts';
import { assert } from '../errors.ts';
import { accountKey, accountKeyTag, accountRecordVersion, decodeAccount, encodeAccount, type StoredAccount } from './account-codec.ts';
import { StateError } from './state-errors.ts';
import { stateRecordKey } from './state-record.ts';
import { contractRecordVersion, decodeContractValue, encodeContractValue } from '../vm/contract-state.ts';

/** A contract_code or contract_storage value: opaque bytes (the module, or what a contract stored) after the version. */
interface ContractBytesRecord {
  readonly bytes: Uint8Array;
}

const contractBytesCodec: StateRecordCodec<ContractBytesRecord> = {
  versions: [contractRecordVersion],
  encode: (record) => encodeContractValue(record.bytes),
  decode: (value) => ({ bytes: decodeContractValue(value).slice() }),
};

/** The record type each namespace's codec reads; `never` for the reserved ones (they hold nothing yet). */
interface StateRecordTypes {
  account: StoredAccount;
  agent: AgentRecord;
  escrow: EscrowRecord;
  contract_code: ContractBytesRecord;
  contract_storage: ContractBytesRecord;
  key_image: KeyImageRecord;
  confidential_output: ConfidentialOutputRecord;
}
export type StateNamespaceName = keyof StateRecordTypes;

// The namespaces kinds write through TxStateView (src/kinds/kind.ts RecordNamespace) are exactly those beside accounts.
type SameUnion<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const recordNamespacesMatch: SameUnion<Exclude<StateNamespaceName, 'account'>, RecordNamespace> = true;
void recordNamespacesMatch;
export type StateRecord<N extends StateNamespaceName> = StateRecordTypes[N];

/** A namespace's value codec. Every value starts with its version byte; `versions` are those `decode` reads. */
interface StateRecordCodec<T> {
  /** Version bytes this codec decodes; empty for a reserved namespace. */
  readonly versions: readonly number[];
  /** The value of a record, version byte first (the newest version). */
  encode(record: T): Uint8Array;
  /** Throws DecodeError: an unknown version ('record-version-unknown'), a bad body, a reserved namespace. */
  decode(value: Uint8Array): T;
}

interface StateNamespaceId {
  /** 'address': the id is a binary address (the RPC takes it as a bech32m `address`); 'bytes': opaque (`id`, 0x-hex). */
  readonly kind: 'address' | 'bytes';
  /** Exact length of an id in bytes: fixed per namespace, which with prefix-free tags keeps namespaces apart. */
  readonly bytes: number;
  readonly describes: string;
}

export interface StateNamespace<N extends StateNamespaceName = StateNamespaceName> {
  readonly name: N;
  /** ASCII key tag, "weft/state/<name>/v<n>". */
  readonly tag: string;
  /** 'active': records are stored; 'reserved': declared, nothing stored until its issue lands. */
  readonly status: 'active' | 'reserved';
  readonly id: StateNamespaceId;
  /** The trie key of the record `id`; StateError 'bad-key' when `id` is not `id.bytes` long. */
  key(id: Uint8Array): Uint8Array;
  readonly codec: StateRecordCodec<StateRecord<N>>;
}

function checkId(name: string, id: StateNamespaceId, bytes: Uint8Array): void {
  if (bytes.length !== id.bytes) {
    throw new StateError('bad-key', `${name} id has ${bytes.length} bytes, expected ${id.bytes} (${id.describes})`);
  }
}

function declare<N extends StateNamespaceName>(
  name: N,
  tag: string,
  status: StateNamespace['status'],
  id: StateNamespaceId,
  codec: StateRecordCodec<StateRecord<N>>,
  key: (id: Uint8Array) => Uint8Array = (bytes) => stateRecordKey(tag, bytes),
): StateNamespace<N> {
  return Object.freeze({
    name,
    tag,
    status,
    id: Object.freeze(id),
    key(bytes: Uint8Array): Uint8Array {
      checkId(name, id, bytes);
      return key(bytes);
    },
    codec: Object.freeze(codec),
  });
}

const accountCodec: StateRecordCodec<StoredAccount> = {
  versions: [accountRecordVersion],
  encode: encodeAccount,
  decode: decodeAccount,
};

const agentCodec: StateRecordCodec<AgentRecord> = { versions: [agentRecordVersion], encode: encodeAgentRecord, decode: decodeAgentRecord };
const escrowCodec: StateRecordCodec<EscrowRecord> = { versions: [escrowRecordVersion], encode: encodeEscrowRecord, decode: decodeEscrowRecord };

const address = (describes: string): StateNamespaceId => ({ kind: 'address', bytes: addressBytes, describes });
const opaque = (bytes: number, describes: string): StateNamespaceId => ({ kind: 'bytes', bytes, describes });

/** Every namespace of the state trie, by name. */
export const stateNamespaces: { readonly [N in StateNamespaceName]: StateNamespace<N> } = Object.freeze({
  // The account key keeps the function the ledger has always used (account-codec.ts), so no state root moves.
  account: declare('account', accountKeyTag, 'active', address('the 33-byte binary address'), accountCodec, accountKey),
  // Agent accounts and escrows (docs/settlement.md): their codecs live with their kinds (src/kinds/agent, escrow).
  agent: declare('agent', 'weft/state/agent/v1', 'active', address("the agent account's 33-byte binary address"), agentCodec),
  escrow: declare('escrow', 'weft/state/escrow/v1', 'active', opaque(32, 'the 32-byte escrow id'), escrowCodec),
  contract_code: declare(
    'contract_code',
    'weft/state/contract-code/v1',
    'active',
    opaque(32, 'the 32-byte BLAKE3 hash of the code'),
    contractBytesCodec,
  ),
  contract_storage: declare(
    'contract_storage',
    'weft/state/contract-storage/v1',
    'active',
    opaque(addressBytes + 32, "the contract's 33-byte address followed by a 32-byte slot"),
    contractBytesCodec,
  ),
  key_image: declare(
    'key_image',
    'weft/state/key-image/v1',
    'active',
    // Monero-style key images are ed25519 points (docs/privacy.md), not secp256k1: 32 bytes.
    opaque(32, 'the 32-byte key image (an ed25519 point)'),
    { versions: [keyImageRecordVersion], encode: encodeKeyImageRecord, decode: decodeKeyImageRecord },
  ),
  confidential_output: declare(
    'confidential_output',
    'weft/state/confidential-output/v1',
    'active',
    // The output id is its one-time key (src/kinds/confidential/records.ts).
    opaque(32, "the 32-byte output id (the output's one-time key)"),
    { versions: [confidentialOutputRecordVersion], encode: encodeConfidentialOutputRecord, decode: decodeConfidentialOutputRecord },
  ),
});

/** The namespace names, accounts first. */
export const stateNamespaceNames: readonly StateNamespaceName[] = Object.freeze(Object.keys(stateNamespaces) as StateNamespaceName[]);
/** The longest natural id of any namespace (contract storage: address ‖ slot), to bound ids taken from outside. */
export const stateRecordIdBytesMax = Math.max(...stateNamespaceNames.map((name) => stateNamespaces[name].id.bytes));

// Keys stay apart only while no tag is a prefix of another (ids have fixed lengths per namespace): crash at load,
// not at a collision, if a declaration ever breaks that.
for (const a of stateNamespaceNames) {
  for (const b of stateNamespaceNames) {
    if (a !== b) assert(!stateNamespaces[b].tag.startsWith(stateNamespaces[a].tag), `state key tag of ${a} is a prefix of ${b}'s`);
  }
}

export function isStateNamespaceName(name: unknown): name is StateNamespaceName {
  return typeof name === 'string' && Object.hasOwn(stateNamespaces, name);
}

/** The declaration of a namespace by name. */
export function stateNamespace<N extends StateNamespaceName>(name: N): StateNamespace<N> {
  return stateNamespaces[name] as StateNamespace<N>;
}

/** The trie key of record `id` in namespace `name` (StateError 'bad-key' for an id of the wrong length). */
export function stateKey(name: StateNamespaceName, id: Uint8Array): Uint8Array {
  return stateNamespaces[name].key(id);
}

/** Decodes a value stored in namespace `name` (DecodeError: unknown version, bad body, reserved namespace). */
export function decodeStateRecord<N extends StateNamespaceName>(name: N, value: Uint8Array): StateRecord<N> {
  return (stateNamespaces[name] as StateNamespace<N>).codec.decode(value);
}
