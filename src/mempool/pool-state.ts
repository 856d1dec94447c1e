/**
 * The state the pool checks transactions against (docs/mempool.md "State rules"): the ledger's virtual state, read
 * only. Admission and revalidation run every kind's own state rules (`checkContext`, src/kinds/kind.ts) — the rules
 * acceptance runs (src/state/body-in-context.ts) — on an overlay of that state: a sender's pending transactions are
 * checked and applied in nonce order, each on top of the ones before it, and every write stays in the overlay. The
 * ledger is never written.
 *
 * The overlay remembers what it read from the base state, so the pool knows which pending senders a block's changes
 * can affect (candidates.ts): the payer's own account, and the records (key images, confidential outputs, escrows,
 * agent accounts, contract code) its transactions looked at.
 */
import { balanceCost, energyCost, type CarrierBlock, type LedgerAccount, type MassRules, type RecordNamespace, type TxStateView } from '../kinds/kind.ts';
import { kindOf } from '../kinds/registry.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import type { Account, AccountReader } from '../state/account.ts';
import { energyCap } from '../state/energy.ts';
import { toHex } from '../util/bytes.ts';
import type { PoolEntry } from './entry.ts';

/** The virtual state as the pool reads it (the ledger implements it; tests may use Maps). */
export interface PoolState extends AccountReader {
  /** A record's stored value (version byte ‖ body) at the virtual state; undefined when absent. */
  record(namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined;
  /** The DAA score the next block's acceptance runs at (energy, escrow timeouts, output maturity). */
  daaScore(): number;
  /** Whether rules v2 govern that acceptance (src/consensus/activation.ts); absent: version 1 rules. */
  rulesV2?(): boolean;
  /** Changes whenever this state may have (MempoolOptions.stateVersion); absent: unknown, never assumed unchanged. */
  version?(): number;
  /** The mass rules of the next block (src/consensus/activation.ts massRulesAt); absent: those before v3. */
  massRules?(): MassRules;
}

/** The key of a record in a read set and in a block's changes: `namespace:hex(id)`. */
function recordKey(namespace: RecordNamespace, id: Uint8Array): string {
  return `${namespace}:${toHex(id)}`;
}

/**
 * Kinds whose verdict on a given state cannot turn from pass to fail as time passes: value transfers (nonce,
 * balance, energy — energy only accrues), the confidential kinds (key images, outputs; maturity only ripens) and the
 * contract kinds (nonce, coins for value and the most gas, the called code existing). Every other kind (escrow
 * timeouts and windows, session-key expiry) is rechecked each block.
 */
const timeIndependentKinds: ReadonlySet<number> = new Set([
  TxKind.Transfer,
  TxKind.MultisigTransfer,
  TxKind.ConfidentialTransfer,
  TxKind.Shield,
  TxKind.Unshield,
  TxKind.ContractDeploy,
  TxKind.ContractCall,
]);

/**
 * Records a run may read without becoming volatile: those whose writers are known from the writing transaction alone
 * (its conflict keys), and contract code, which is written once and never changed (it can only make a call pass).
 */
const steadyNamespaces: ReadonlySet<RecordNamespace> = new Set<RecordNamespace>(['key_image', 'confidential_output', 'contract_code']);

/**
 * Contract kinds are not executed in the pool: their state rules read only the sender's account and the called code
 * (src/kinds/contract-tx.ts), so the overlay takes just what acceptance takes from the sender at most — the nonce,
 * the value and the most gas — and a pending call never costs the node a VM run per admission or per block.
 */
const contractKinds: ReadonlySet<number> = new Set([TxKind.ContractDeploy, TxKind.ContractCall]);

export interface SenderRun {
  /** The executable run: contiguous nonces from the account's, each passing its kind's state rules on top of the ones before. */
  readonly run: readonly PoolEntry[];
  /** Entries whose nonce the account has already used. */
  readonly stale: readonly PoolEntry[];
  /** The first entry of the run that fails its state rules, with acceptance's reason (it and what follows are not executable). */
  readonly failed: { readonly entry: PoolEntry; readonly reason: string } | undefined;
  /** Record keys (recordKey) and other accounts (`account:hex`) it read from the base state; never the payer's account. */
  readonly reads: readonly string[];
  /** Whether the verdict may change with time alone, or depends on records no block summary names: rechecked every block. */
  readonly volatile: boolean;
  /** The payer's account as read. */
  readonly account: Account;
}

/**
 * A read-only overlay over `state` for one sender's simulation: writes stay here; reads of the base are recorded. A
 * class, not an object of closures: admission and every block's recheck make one per sender checked.
 */
class OverlayView implements TxStateView {
  readonly daaScore: number;
  readonly rulesV2?: boolean;
  private readonly accounts = new Map<string, LedgerAccount>();
  /** Credits to accounts not otherwise touched: kept as deltas, so a transfer's recipient costs no state read. */
  private readonly credits = new Map<string, bigint>();
  private readonly records = new Map<string, Uint8Array | null>();

  constructor(
    private readonly state: PoolState,
    private readonly payer: string,
    private readonly reads: Set<string>,
    private readonly volatile: { value: boolean },
  ) {
    this.daaScore = state.daaScore();
    if (state.rulesV2?.() === true) this.rulesV2 = true;
  }

  private base(address: Uint8Array, key: string): LedgerAccount {
    const known = this.accounts.get(key);
    if (known !== undefined) return known;
    if (key !== this.payer) this.reads.add(`account:${key}`);
    const account = { ...this.state.account(address), energyDaaScore: this.daaScore };
    const credit = this.credits.get(key);
    return credit === undefined ? account : { ...account, balance: account.balance + credit };
  }

  account(address: Uint8Array): LedgerAccount {
    return this.base(address, toHex(address));
  }

  setAccount(address: Uint8Array, account: LedgerAccount): void {
    const cap = energyCap(account.balance);
    this.accounts.set(toHex(address), account.energy > cap ? { ...account, energy: cap } : account);
  }

  credit(address: Uint8Array, amount: bigint): void {
    // A credit never turns a passing check into a failing one: the account it goes to is no dependency.
    const key = toHex(address);
    const known = this.accounts.get(key);
    if (known !== undefined) this.accounts.set(key, { ...known, balance: known.balance + amount });
    else this.credits.set(key, (this.credits.get(key) ?? 0n) + amount);
  }

  record(namespace: RecordNamespace, id: Uint8Array): Uint8Array | undefined {
    const key = recordKey(namespace, id);
    const written = this.records.get(key);
    if (written !== undefined) return written ?? undefined;
    this.reads.add(key);
    if (!steadyNamespaces.has(namespace)) this.volatile.value = true;
    return this.state.record(namespace, id);
  }

  setRecord(namespace: RecordNamespace, id: Uint8Array, value: Uint8Array | null): void {
    this.records.set(recordKey(namespace, id), value);
  }

  carrier(): CarrierBlock {
    return { daaScore: this.daaScore, timestampMs: 0 };
  }
}

/** The sender's side of a transaction at its most: nonce, amount, and the whole fee from the balance or the energy. */
function applySpendOnly(view: TxStateView, entry: PoolEntry): void {
  const account = view.account(entry.spend.payer);
  view.setAccount(entry.spend.payer, {
    ...account,
    nonce: account.nonce + 1n,
    balance: account.balance - balanceCost(entry.spend),
    energy: account.energy - energyCost(entry.spend),
  });
}

/**
 * Walks one sender's queue (nonce order) against `state` as acceptance would: stale nonces are skipped, a gap ends
 * the run, and each transaction must pass its kind's `checkContext` on the overlay before it is applied there.
 */
export function simulateRun(queue: readonly PoolEntry[], state: PoolState): SenderRun {
  const reads = new Set<string>();
  const volatile = { value: false };
  if (queue.length === 0) return { run: [], stale: [], failed: undefined, reads: [], volatile: false, account: { balance: 0n, nonce: 0n, energy: 0n } };
  const payer = queue[0]!.spend.payer;
  const account = state.account(payer);
  const view = new OverlayView(state, queue[0]!.sender, reads, volatile);
  const run: PoolEntry[] = [];
  const stale: PoolEntry[] = [];
  let failed: SenderRun['failed'];
  let expected = account.nonce;
  for (const entry of queue) {
    if (entry.spend.nonce < account.nonce) {
      stale.push(entry);
      continue;
    }
    if (failed !== undefined || entry.spend.nonce !== expected) break;
    const kind = kindOf(entry.tx);
    if (!timeIndependentKinds.has(kind.tag)) volatile.value = true;
    const reason = kind.checkContext(view, entry.tx);
    if (reason !== undefined) {
      failed = { entry, reason };
      break;
    }
    if (contractKinds.has(kind.tag)) applySpendOnly(view, entry);
    else kind.apply(view, entry.tx);
    run.push(entry);
    expected += 1n;
  }
  return { run, stale, failed, reads: [...reads], volatile: volatile.value, account };
}
