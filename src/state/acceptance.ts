/**
 * Acceptance (docs/state.md "Acceptance"): a block's mergeset, in consensus order (selected parent first, then
 * ascending blue work and hash), applied onto its selected parent's state. Pure: reads accounts through a function,
 * returns the changed accounts and what happened to every transaction; writes nothing.
 *
 * Each transaction of each merged block, in block order, is accepted iff it passes the body-in-context stage
 * (body-in-context.ts: its kind's state rules — for transfers, nonce == the sender's account nonce and a balance,
 * or energy, that covers the spend); otherwise it is skipped as "not accepted" — never an error of the block. Coin
 * fees go to the reward of the block that carried the transaction; energy-paid fees are burnt as energy. Proofs and
 * chain ids were checked when the block's body was validated.
 *
 * Rewards, after all transactions: every merged block earns its subsidy (by its own DAA score, clamped under the
 * cap) plus the coin fees of its accepted transactions; a blue block's reward goes to its own miner, a red block's
 * to the merging block's miner (Kaspa's rule). With no merging miner (the virtual view), red rewards are withheld:
 * neither credited nor counted as emitted.
 */
import type { ContractReceipt } from '../kinds/contract-receipt.ts';
import type { AnyTransaction } from '../kinds/transaction-codec.ts';
import { clampedSubsidyUnits } from '../consensus/emission.ts';
import type { CarrierBlock, TxStateView } from '../kinds/kind.ts';
import { toHex } from '../util/bytes.ts';
import { emptyStoredAccount, type StoredAccount } from './account-codec.ts';
import { acceptInContext } from './body-in-context.ts';
import { energyCap, settleEnergy } from './energy.ts';
import { stateKey } from './namespaces.ts';

interface MergedBlockInput {
  readonly id: string;
  readonly miner: Uint8Array;
  readonly daaScore: number;
  readonly blue: boolean;
  /** Its header's timestamp: what contracts see as block_timestamp (with daaScore as block_height); 0 if not given. */
  readonly timestampMs?: number;
  readonly transactions: readonly { readonly tx: AnyTransaction }[];
}

export interface AcceptanceInput {
  /** The selected parent's state. */
  readonly read: (address: Uint8Array) => StoredAccount | undefined;
  /** The selected parent's state: the stored value under a namespaced record's trie key (namespaces.ts); none when absent. */
  readonly readRecord?: (key: Uint8Array) => Uint8Array | undefined;
  readonly merged: readonly MergedBlockInput[];
  /** The merging block's miner (gets red blocks' rewards); null for the virtual view. */
  readonly mergingMiner: Uint8Array | null;
  /** The merging block's DAA score: the "now" of energy. */
  readonly daaScore: number;
  /** Units emitted in the selected parent's state. */
  readonly emittedBefore: bigint;
  /** Whether rules v2 govern this acceptance (at the merging block's DAA score); absent: version 1 rules. */
  readonly rulesV2?: boolean;
}

export interface MergedBlockOutcome {
  readonly id: string;
  readonly blue: boolean;
  /** One flag per transaction of the block, in block order. */
  readonly accepted: readonly boolean[];
  /** Receipts of its accepted contract transactions, by index in the block (node-local, not consensus). */
  readonly receipts: readonly { readonly index: number; readonly receipt: ContractReceipt }[];
  /** Coin fees of its accepted transactions. */
  readonly fees: bigint;
  /** Fees its accepted transactions paid in energy. */
  readonly energyUsed: bigint;
  readonly subsidy: bigint;
  /** subsidy + fees, credited to `recipient` (null: withheld, virtual view only). */
  readonly reward: bigint;
  readonly recipient: Uint8Array | null;
}

/** A namespaced record written by acceptance: its trie key and its new value (null: deleted). */
interface RecordChange {
  readonly key: Uint8Array;
  readonly value: Uint8Array | null;
}

export interface AcceptanceResult {
  /** Changed accounts by lowercase hex address. */
  readonly changes: ReadonlyMap<string, { readonly address: Uint8Array; readonly account: StoredAccount }>;
  /** Changed records of the other namespaces, by lowercase hex trie key. */
  readonly records: ReadonlyMap<string, RecordChange>;
  readonly blocks: readonly MergedBlockOutcome[];
  /** Units emitted in the resulting state (emittedBefore + credited subsidies). */
  readonly emitted: bigint;
  /** Units destroyed (no rule burns coins in this version; kept so sum(balances) + burnt = emitted stays the audit). */
  readonly burnt: bigint;
  /** Rewards not credited (virtual view: red blocks with no merging miner yet). */
  readonly withheld: bigint;
}

type Changes = Map<string, { address: Uint8Array; account: StoredAccount }>;

const noRecords = (): undefined => undefined;

function createWorkingState(read: AcceptanceInput['read'], readRecord: NonNullable<AcceptanceInput['readRecord']>, now: number, rulesV2: boolean) {
  const changes: Changes = new Map();
  const records = new Map<string, RecordChange>();
  let carrier: CarrierBlock = { daaScore: now, timestampMs: 0 };
  const get = (address: Uint8Array): { key: string; account: StoredAccount } => {
    const key = toHex(address);
    const account = changes.get(key)?.account ?? read(address) ?? emptyStoredAccount;
    return { key, account: settleEnergy(account, now) };
  };
  const set = (key: string, address: Uint8Array, account: StoredAccount): void => {
    const cap = energyCap(account.balance);
    changes.set(key, { address, account: account.energy > cap ? { ...account, energy: cap } : account });
  };
  const credit = (address: Uint8Array, amount: bigint): void => {
    const { key, account } = get(address);
    set(key, address, { ...account, balance: account.balance + amount });
  };
  /**
   * What the kinds' state transitions see: accounts with energy settled to the merging block's DAA score. A kind
   * reads its sender in `checkContext` and again in `apply`; the last lookup is remembered (by the address object)
   * so that costs one hex key and one settlement, as a hand-written transition would.
   */
  let last: { address: Uint8Array; key: string; account: StoredAccount } | undefined;
  const view: TxStateView = {
    daaScore: now,
    rulesV2,
    account(address) {
      if (last?.address === address) return last.account;
      const found = get(address);
      last = { address, key: found.key, account: found.account };
      return found.account;
    },
    setAccount(address, account) {
      const key = last?.address === address ? last.key : toHex(address);
      last = undefined;
      set(key, address, account);
    },
    credit(address, amount) {
      last = undefined;
      credit(address, amount);
    },
    record(namespace, id) {
      const key = stateKey(namespace, id);
      const changed = records.get(toHex(key));
      return changed === undefined ? readRecord(key) : (changed.value ?? undefined);
    },
    setRecord(namespace, id, value) {
      const key = stateKey(namespace, id);
      records.set(toHex(key), { key, value });
    },
    carrier: () => carrier,
  };
  const carry = (block: CarrierBlock): void => {
    carrier = block;
  };
  return { changes, records, credit, view, carry };
}

export function acceptMergeset(input: AcceptanceInput): AcceptanceResult {
  const state = createWorkingState(input.read, input.readRecord ?? noRecords, input.daaScore, input.rulesV2 === true);
  const perBlock = input.merged.map((block) => {
    state.carry({ daaScore: block.daaScore, timestampMs: block.timestampMs ?? 0 });
    let fees = 0n;
    let energyUsed = 0n;
    const receipts: { index: number; receipt: ContractReceipt }[] = [];
    const accepted = block.transactions.map(({ tx }, index) => {
      const outcome = acceptInContext(state.view, tx);
      if (!outcome.accepted) return false;
      if (outcome.paid.receipt) receipts.push({ index, receipt: outcome.paid.receipt });
      fees += outcome.paid.coinFee;
      energyUsed += outcome.paid.energyFee;
      return true;
    });
    return { block, accepted, receipts, fees, energyUsed };
  });
  let emitted = input.emittedBefore;
  let withheld = 0n;
  const blocks = perBlock.map(({ block, accepted, receipts, fees, energyUsed }): MergedBlockOutcome => {
    const recipient = block.blue ? block.miner : input.mergingMiner;
    const subsidy = recipient === null ? 0n : clampedSubsidyUnits(block.daaScore, emitted);
    emitted += subsidy;
    const reward = subsidy + fees;
    if (recipient === null) withheld += fees + clampedSubsidyUnits(block.daaScore, emitted);
    else if (reward > 0n) state.credit(recipient, reward);
    return { id: block.id, blue: block.blue, accepted, receipts, fees, energyUsed, subsidy, reward, recipient };
  });
  return { changes: state.changes, records: state.records, blocks, emitted, burnt: 0n, withheld };
}
