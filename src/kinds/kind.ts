/**
 * A transaction kind as one module (docs/architecture.md "Adding a transaction kind"): everything the node needs to
 * know about a kind of transaction is declared here once, and every consumer — block validation, acceptance, the
 * mempool, the transaction index, the APIs, statistics, subscriptions — asks the kind instead of re-deriving it.
 *
 * A kind module is pure (layer 1): it reads and writes state only through the `TxStateView` it is handed, and it
 * names the witness checks it needs (src/crypto/witness-check.ts) instead of verifying them, so the same module runs in the
 * node and in a browser tab.
 */
import type { ContractReceipt } from './contract-receipt.ts';
import type { WitnessCheck } from '../crypto/witness-check.ts';

/** What every transaction has: its kind tag (the first byte) and the chain id its signatures commit to. */
export interface AnyTransaction {
  readonly kind: number;
  readonly chainId: number;
}

/**
 * What a transaction takes from whom: the account whose nonce it uses and that pays, the coins it moves out of that
 * balance, and its fee — paid in energy when `useEnergy` is set, else from the balance.
 */
export interface Spend {
  readonly payer: Uint8Array;
  readonly nonce: bigint;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly useEnergy: boolean;
  /**
   * Set by kinds with no transparent payer (confidential transfers, unshielding): the fee comes out of the
   * commitment balance, so neither the payer's balance nor its energy pays it (src/kinds/confidential/ring-spend.ts).
   */
  readonly feeFromCommitments?: boolean;
  /**
   * Set by the agent and escrow kinds: with `useEnergy`, the fee comes from the payer's agent-account energy pool
   * when the payer is an agent account (docs/settlement.md "Fees and the energy pool"), else from its account energy.
   */
  readonly feeFromAgentPool?: boolean;
}

/** Coins the payer's balance loses: the amount, plus the fee unless energy or the commitments pay it. */
export function balanceCost(spend: Spend): bigint {
  return spend.useEnergy || spend.feeFromCommitments === true ? spend.amount : spend.amount + spend.fee;
}

/** Energy the payer loses: the fee when energy pays it. */
export function energyCost(spend: Spend): bigint {
  return spend.useEnergy && spend.feeFromCommitments !== true ? spend.fee : 0n;
}

/** An address a transaction touches, for histories and address events; `amount` is what a recipient receives. */
export interface Party {
  readonly address: Uint8Array;
  readonly role: 'sender' | 'recipient';
  readonly amount: bigint;
}

/** Which mass rules weigh a transaction: those of the block at its DAA score (src/consensus/activation.ts). */
export interface MassRules {
  /** Rules v3: a CLSAG ring member weighs its verification time against a Schnorr check's (docs/consensus.md "Activations"). */
  readonly rulesV3: boolean;
  /** Rules v4: every transaction weighs a fixed mass besides its parts (src/kinds/mass.ts); absent: false. */
  readonly rulesV4?: boolean;
}

/** What one transaction weighs against a block's budget (docs/transactions.md "Kinds and mass"). */
export interface MassParts {
  readonly bytes: number;
  /** Signature operations (proof checks) it makes a validator run. */
  readonly sigOps: number;
  /** Contract gas it may burn (0 for kinds that run no contract). */
  readonly gas: number;
}

/** An account as a kind's state transition sees it (energy already settled to the block's DAA score). */
export interface LedgerAccount {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly energy: bigint;
  readonly energyDaaScore: number;
}

/**
 * The state namespaces beside accounts that kinds keep records in (src/state/namespaces.ts declares each one's key
 * tag, id length and record codec; docs/state.md "Namespaces").
 */
export type RecordNamespace = 'agent' | 'escrow' | 'contract_code' | 'contract_storage' | 'key_image' | 'confidential_output';

/** The header fields of the block that carries a transaction, for kinds whose effect depends on them (contracts). */
export interface CarrierBlock {
  readonly daaScore: number;
  readonly timestampMs: number;
}

/** The state a kind's transition reads and writes, handed in by acceptance (src/state/body-in-context.ts). */
export interface TxStateView {
  /**
   * The DAA score of the block whose acceptance runs (its mergeset's "now"): the clock of energy, session-key
   * expiries, escrow timeouts (docs/settlement.md "Time") and confidential output maturity — never wall-clock.
   */
  readonly daaScore: number;
  /**
   * Whether rules v2 govern this acceptance (`rulesV2Active(params, daaScore)`, src/consensus/activation.ts); absent
   * reads as false, the version 1 rules. Every view a node judges transactions with (acceptance, templates, the
   * mempool, wallet pre-checks) sets it from its network's parameters.
   */
  readonly rulesV2?: boolean;
  /** The account at `address` (absent accounts read as empty). */
  account(address: Uint8Array): LedgerAccount;
  setAccount(address: Uint8Array, account: LedgerAccount): void;
  credit(address: Uint8Array, amount: bigint): void;
  /**
   * The stored value (version byte ‖ body, src/state/state-record.ts) of record `id` in `namespace`, or undefined
   * when absent. A kind decodes it with its namespace's codec; an id of the wrong length is a StateError.
   */
  record(namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined;
  /** Writes record `id` of `namespace` (null deletes it). Only after `checkContext` passed, like every write. */
  setRecord(namespace: RecordNamespace, id: Uint8Array, value: Uint8Array | null): void;
  /** The block carrying the transaction being accepted (contracts' block height and timestamp). */
  carrier(): CarrierBlock;
}

/** What an accepted transaction paid: coins to the reward of the block that carried it, and energy burnt. */
export interface Paid {
  readonly coinFee: bigint;
  readonly energyFee: bigint;
  /** A contract transaction's receipt (node-local, not consensus: contract-receipt.ts). */
  readonly receipt?: ContractReceipt;
}

export interface TxKindModule<T extends AnyTransaction = AnyTransaction> {
  /** The kind tag, the transaction's first byte (src/codec/transaction-kinds.ts reserves the families). */
  readonly tag: number;
  /** snake_case name: the JSON `kind` field. */
  readonly name: string;

  /** Parses canonical bytes (tag included). Throws DecodeError for anything that is not exactly one encoding. */
  decode(bytes: Uint8Array): T;
  /** The canonical bytes. Throws a coded error for out-of-range fields. */
  encode(tx: T): Uint8Array;
  /** The body (everything the signatures sign) of a signed or unsigned transaction. */
  encodeBody(tx: Omit<T, never>): Uint8Array;
  /** Length of the body at the start of the encoding, so a received transaction's signing hash needs no re-encoding. */
  bodyBytes(tx: T): number;

  /** The witness checks its authorisation needs over `signingHash`; undefined when no witness could make it valid. */
  witnessChecks(tx: T, signingHash: Uint8Array): WitnessCheck[] | undefined;
  /** Whose nonce it uses, what it spends and its fee: admission, ordering, pending balances. */
  spend(tx: T): Spend;
  /** Keys no two pool transactions may share unless one replaces the other (today: sender and nonce). */
  conflictKeys(tx: T): string[];
  /**
   * Its weight against the block mass budget; `bytes` is its encoded length; `rules` the mass rules of the block it is
   * weighed for (absent: before rules v3). Kinds whose weight never changed ignore it.
   */
  mass(tx: T, bytes: number, rules?: MassRules): MassParts;

  /** The state rules that decide acceptance (body in context): a reason when it is not accepted, else undefined. */
  checkContext(state: TxStateView, tx: T): string | undefined;
  /** Its state transition, run only after `checkContext` passed on the same state. */
  apply(state: TxStateView, tx: T): Paid;

  /** The addresses it touches, sender first. */
  parties(tx: T): Party[];
  /** Its kind-specific JSON fields for the APIs (addresses with `hrp`), beside the common hash, kind and status. */
  view(tx: T, hrp: string): Record<string, unknown>;
  /** The privacy level it shows (docs/api.md "Privacy levels"); absent: 'medium', a transparent transfer's. */
  privacyLevel?(tx: T): 'high' | 'medium';
}
