/**
 * The node wallet's view of the confidential world (docs/privacy.md "Wallets"): which outputs its stealth accounts
 * own, and the pool of outputs it draws decoys from. Blocks are scanned as they arrive (every block, blue or red:
 * whether an output counts is decided when it is read, against the virtual state), and the stored chain is
 * scanned once, lazily, the first time an account is asked about (or when an account is added).
 *
 * Reads never trust the scan alone: an output counts only while the state holds it (a reorganisation may drop it)
 * and its key image is absent from the key-image set (spent outputs leave). So the scan may over-collect, never
 * mislead.
 */
import type { Chain } from '../../src/chain/chain.ts';
import { decodeTransaction } from '../../src/codec/transaction.ts';
import type { AnyTransaction } from '../../src/codec/transaction.ts';
import { decodeConfidentialOutputRecord, type ConfidentialOutputRecord } from '../../src/kinds/confidential/records.ts';
import { isMature } from '../../src/kinds/confidential/rules.ts';
import type { RingMember } from '../../src/kinds/confidential/codec.ts';
import type { RecordNamespace } from '../../src/kinds/kind.ts';
import { isConfidentialTransaction, scanTransaction, type ScannedOutput } from '../../src/wallet/confidential-scan.ts';
import type { StealthAccount } from '../../src/wallet/stealth-accounts.ts';
import { toHex } from '../../src/util/bytes.ts';

export interface OutputStatus {
  readonly output: ScannedOutput;
  readonly record: ConfidentialOutputRecord;
  readonly mature: boolean;
}

export interface ConfidentialOutputs {
  /** Owned outputs of `account` the virtual state holds unspent (scans the stored chain first if needed). */
  unspent(account: StealthAccount): OutputStatus[];
  /** Mature outputs of the chain other than `exclude`, as ring members with their stored commitments. */
  decoyCandidates(exclude: ReadonlySet<string>): RingMember[];
  /** The virtual state's DAA score as the wallet counts maturity (the selected tip's). */
  daaScore(): number;
  close(): void;
}

export interface ConfidentialOutputsOptions {
  readonly chain: Chain;
  readonly record: (namespace: RecordNamespace, id: Uint8Array) => Uint8Array | undefined;
  /** Every stealth account of every wallet, at the time of asking. */
  readonly accounts: () => readonly StealthAccount[];
}

export function trackConfidentialOutputs(options: ConfidentialOutputsOptions): ConfidentialOutputs {
  const { chain, record } = options;
  const owned = new Map<string, ScannedOutput>();
  const seen = new Map<string, RingMember>();
  // Accounts whose stored chain was scanned, by address: new blocks are scanned for these (no wallet I/O per block).
  const scannedAccounts = new Map<string, StealthAccount>();

  const scanBlockTransactions = (transactions: readonly Uint8Array[], accounts: readonly StealthAccount[]) => {
    for (const bytes of transactions) {
      let tx: AnyTransaction;
      try {
        tx = decodeTransaction(bytes);
      } catch {
        continue;
      }
      if (!isConfidentialTransaction(tx)) continue;
      const scan = scanTransaction(accounts, tx);
      for (const o of scan.outputs) seen.set(toHex(o.oneTimeKey), o);
      for (const o of scan.owned) owned.set(toHex(o.oneTimeKey), o);
    }
  };

  // Every stored block once: each block is in the mergeset of exactly one selected-chain block, or is a tip.
  const scanStoredChain = (accounts: readonly StealthAccount[]) => {
    const done = new Set<string>();
    const visit = (id: Parameters<Chain['getBlock']>[0]) => {
      const key = String(id);
      if (done.has(key)) return;
      done.add(key);
      const block = chain.getBlock(id);
      if (block) scanBlockTransactions(block.transactions, accounts);
    };
    const tip = chain.selectedTip();
    for (let h = 0; h <= tip.height; h++) {
      const chainBlock = chain.blockAtHeight(h);
      if (chainBlock === undefined) continue;
      visit(chainBlock.id);
      for (const id of chain.orderedMergeset(chain.ghostdag(chainBlock.id))) visit(id);
    }
    for (const t of chain.tips()) visit(t.id);
  };

  const ensureScanned = () => {
    const fresh = options.accounts().filter((a) => !scannedAccounts.has(a.text));
    if (fresh.length === 0) return;
    scanStoredChain(fresh);
    for (const a of fresh) scannedAccounts.set(a.text, a);
  };

  const unsubscribe = chain.onBlockAccepted(({ block }) => {
    // A node with no stealth account asked about reads nothing; accounts not scanned yet are caught up by their
    // first full scan, which also covers this block.
    if (scannedAccounts.size === 0) return;
    const body = chain.getBlock(block.id);
    if (body) scanBlockTransactions(body.transactions, [...scannedAccounts.values()]);
  });

  const daaScore = () => chain.selectedTip().header.daaScore;
  const chainId = chain.params.chainId;
  const storedOutput = (oneTimeKey: Uint8Array) => {
    const value = record('confidential_output', oneTimeKey);
    return value === undefined ? undefined : decodeConfidentialOutputRecord(value);
  };

  return {
    unspent(account) {
      ensureScanned();
      const now = daaScore();
      const out: OutputStatus[] = [];
      for (const o of owned.values()) {
        if (o.account !== account.text) continue;
        const stored = storedOutput(o.oneTimeKey);
        if (stored === undefined || record('key_image', o.keyImage) !== undefined) continue;
        out.push({ output: o, record: stored, mature: isMature(stored.createdDaaScore, now, chainId) });
      }
      return out;
    },
    decoyCandidates(exclude) {
      ensureScanned();
      const now = daaScore();
      const out: RingMember[] = [];
      for (const [key, member] of seen) {
        if (exclude.has(key)) continue;
        const stored = storedOutput(member.oneTimeKey);
        if (stored === undefined || !isMature(stored.createdDaaScore, now, chainId)) continue;
        out.push({ oneTimeKey: member.oneTimeKey, commitment: stored.commitment });
      }
      return out;
    },
    daaScore,
    close: unsubscribe,
  };
}
