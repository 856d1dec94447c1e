/**
 * The node wallet's view of the confidential world (docs/privacy.md "Wallets"): which outputs its stealth accounts
 * own, and the pool of outputs it draws decoys from. Blocks are scanned as they arrive (every block, blue or red:
 * whether an output counts is decided when it is read, against the virtual state), and the stored chain is
 * scanned once, when the wallet starts (catchUp) or an account is first asked about or added — for an account
 * whose wallet saved a scan, only past its saved cursor: the owned outputs found are saved per wallet (sealed,
 * saved-scan.ts), because a pruned node deletes the bodies they were found in.
 *
 * Reads never trust the scan alone: an output counts only while the state holds it (a reorganisation may drop it)
 * and its key image is absent from the key-image set (spent outputs leave). So the scan may over-collect, never
 * mislead.
 */
import type { Chain } from '../../src/chain/chain.ts';
import type { BlockId } from '../../src/consensus/ghostdag.ts';
import { decodeTransaction } from '../../src/kinds/transaction-codec.ts';
import type { AnyTransaction } from '../../src/kinds/transaction-codec.ts';
import { decodeConfidentialOutputRecord, type ConfidentialOutputRecord } from '../../src/kinds/confidential/records.ts';
import { isMature } from '../../src/kinds/confidential/rules.ts';
import type { RingMember } from '../../src/kinds/confidential/codec.ts';
import type { RecordNamespace } from '../../src/kinds/kind.ts';
import { isConfidentialTransaction, scanTransaction, type ScannedOutput } from '../../src/wallet/confidential-scan.ts';
import type { StealthAccount } from '../../src/wallet/stealth-accounts.ts';
import { toHex } from '../../src/util/bytes.ts';
import { savedDecoysMax, scanSaveIntervalBlocks } from '../../src/wallet/wallet-limits.ts';
import type { RandomBytes } from '../../src/crypto/monero/scalar.ts';
import type { ScanStore } from './saved-scan.ts';

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
  /** Scans the stored chain for accounts not scanned yet (past their saved cursors); later blocks as they come. */
  catchUp(): void;
  close(): void;
}

export interface ConfidentialOutputsOptions {
  readonly chain: Chain;
  readonly record: (namespace: RecordNamespace, id: Uint8Array) => Uint8Array | undefined;
  /** Every stealth account of every wallet, with its wallet's name, at the time of asking. */
  readonly accounts: () => readonly { wallet: string; account: StealthAccount }[];
  /** Where each wallet's scan is kept across restarts; without one every start rescans the stored chain. */
  readonly store?: ScanStore;
  /** Draws the saved decoy sample. */
  readonly random: RandomBytes;
}

export function trackConfidentialOutputs(options: ConfidentialOutputsOptions): ConfidentialOutputs {
  const { chain, record, store } = options;
  const owned = new Map<string, ScannedOutput>();
  const seen = new Map<string, RingMember>();
  // Accounts whose stored chain was scanned, by address: new blocks are scanned for these (no wallet I/O per block).
  const scannedAccounts = new Map<string, StealthAccount>();
  // Per scanned account, the block up to which everything is scanned for it, and its wallet's name.
  const cursors = new Map<string, BlockId>();
  const walletOf = new Map<string, string>();
  const loadedWallets = new Set<string>();
  let decoysCollected = false;
  let blocksSinceSave = 0;

  const scanBlockTransactions = (transactions: readonly Uint8Array[], accounts: readonly StealthAccount[]): number => {
    let found = 0;
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
      found += scan.owned.length;
    }
    return found;
  };

  /**
   * Every stored block once (each block is in the mergeset of exactly one selected-chain block, or is a tip), each
   * scanned for the accounts whose `from` height it reaches; from genesis when the decoy pool is still empty.
   */
  const scanStoredChain = (groups: readonly { from: number; accounts: StealthAccount[] }[], decoys: boolean) => {
    const done = new Set<string>();
    const visit = (id: BlockId, accounts: StealthAccount[]) => {
      if (done.has(id)) return;
      done.add(id);
      const block = chain.getBlock(id);
      if (block) scanBlockTransactions(block.transactions, accounts);
    };
    const tip = chain.selectedTip();
    const start = decoys ? 0 : Math.min(...groups.map((g) => g.from));
    for (let h = start; h <= tip.height; h++) {
      const chainBlock = chain.blockAtHeight(h);
      if (chainBlock === undefined) continue;
      const accounts = groups.flatMap((g) => (g.from <= h ? g.accounts : []));
      visit(chainBlock.id, accounts);
      for (const id of chain.orderedMergeset(chain.ghostdag(chainBlock.id))) visit(id, accounts);
    }
    const all = groups.flatMap((g) => g.accounts);
    for (const t of chain.tips()) visit(t.id, all);
    return tip.id;
  };

  /** The height to resume an account's scan at: past its cursor, or past where the cursor's branch left the chain. */
  const resumeHeight = (cursor: BlockId | undefined): number => {
    let block = cursor === undefined ? undefined : chain.get(cursor);
    while (block && chain.blockAtHeight(block.height)?.id !== block.id) block = block.selectedParent ?? undefined;
    return block === undefined ? 0 : block.height + 1;
  };

  // The decoy pool is saved too, as a uniform sample: after a restart a pruned node reads only recent bodies, and a
  // ring of recent decoys around an older real output would point at it.
  const sampleDecoys = (): RingMember[] => {
    const pool = [...seen.values()];
    for (let i = 0; i < Math.min(savedDecoysMax, pool.length); i++) {
      const draw = options.random(4);
      const j = i + (new DataView(draw.buffer, draw.byteOffset, 4).getUint32(0) % (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, savedDecoysMax);
  };

  const save = (wallet: string) => {
    if (store === undefined) return;
    const accounts = [...cursors.keys()].filter((a) => walletOf.get(a) === wallet);
    const mine = new Set(accounts);
    store.save(wallet, {
      cursors: new Map(accounts.map((a) => [a, cursors.get(a)!])),
      outputs: [...owned.values()].filter((o) => mine.has(o.account)),
      decoys: sampleDecoys(),
    });
  };

  // A failed save (disk full) must not stop the chain's listeners: the next one tries again, and nothing found is
  // lost until the process ends.
  const saveAll = () => {
    try {
      for (const wallet of new Set(walletOf.values())) save(wallet);
      blocksSinceSave = 0;
    } catch {
      blocksSinceSave = scanSaveIntervalBlocks;
    }
  };

  const ensureScanned = () => {
    const fresh = options.accounts().filter((a) => !scannedAccounts.has(a.account.text));
    if (fresh.length === 0) return;
    for (const { wallet } of fresh) {
      if (loadedWallets.has(wallet)) continue;
      loadedWallets.add(wallet);
      // Saved outputs join the scan's: read against the state like any other, so one from a block that left the
      // chain, or was spent, never counts.
      const saved = store?.load(wallet);
      for (const o of saved?.outputs ?? []) owned.set(toHex(o.oneTimeKey), o);
      for (const [account, cursor] of saved?.cursors ?? []) cursors.set(account, cursor);
      for (const d of saved?.decoys ?? []) seen.set(toHex(d.oneTimeKey), d);
    }
    const groups = new Map<number, StealthAccount[]>();
    for (const { account } of fresh) {
      const from = resumeHeight(cursors.get(account.text));
      groups.set(from, [...(groups.get(from) ?? []), account]);
    }
    const tip = scanStoredChain([...groups].map(([from, accounts]) => ({ from, accounts })), !decoysCollected);
    decoysCollected = true;
    for (const { wallet, account } of fresh) {
      scannedAccounts.set(account.text, account);
      walletOf.set(account.text, wallet);
      cursors.set(account.text, tip);
    }
    saveAll();
  };

  const unsubscribe = chain.onBlockAccepted(({ block, selectedTipChanged }) => {
    // A node with no stealth account asked about reads nothing; accounts not scanned yet are caught up by their
    // first full scan, which also covers this block.
    if (scannedAccounts.size === 0) return;
    const body = chain.getBlock(block.id);
    const found = body ? scanBlockTransactions(body.transactions, [...scannedAccounts.values()]) : 0;
    // Events come in acceptance order, after the block is durable: every block accepted so far is scanned, so the
    // new selected tip is every account's cursor (a cursor that lags only costs a rescan).
    if (!selectedTipChanged && found === 0) return;
    if (selectedTipChanged) {
      for (const account of scannedAccounts.keys()) cursors.set(account, block.id);
      blocksSinceSave++;
    }
    if (found > 0 || blocksSinceSave >= scanSaveIntervalBlocks) saveAll();
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
    catchUp: ensureScanned,
    close() {
      unsubscribe();
      if (blocksSinceSave > 0) saveAll();
    },
  };
}
