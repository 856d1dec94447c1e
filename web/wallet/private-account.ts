/**
 * The tab's confidential account (docs/wallet.md "Confidential account"): stealth account 0 of the unlocked wallet, derived
 * from its seed exactly as the node wallet derives it (src/wallet/stealth-accounts.ts, `m/44'/coin'/acct'/2'/0'`),
 * and the scan that finds what it owns. The scan reads the selected chain's blocks through the public get_block
 * (and any off-chain parent a chain block merges), from genesis the first time this browser opens the account (from
 * privateFreshLookbackBlocks below the tip for a phrase generated here just now) and from the IndexedDB cursor after
 * that. An output or a spend counts only once get_transaction says a chain block
 * accepted its transaction; a transaction still pending holds the cursor where it is, so it is read again. That
 * only decides what to look at: with a `prover` (private-verify.ts) each output is then proven against the tab's
 * verified headers, and only proven outputs count (private-summary.ts); the tip's DAA score is the verified one.
 *
 * Keys stay in this tab: the node sees block reads and, when sending, a signed transaction.
 */
import type { MoneroKeys } from '../../src/crypto/monero/keys.ts';
import type { StealthAccount } from '../../src/wallet/stealth-accounts.ts';
import type { OwnedOutput } from '../../src/wallet/confidential.ts';
import { getBlock, getHeight, getTransaction } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import type { PendingPrivateSend, PrivateDb, ScanCursor } from './private-db.ts';
import {
  privateDecoyProofsPerRefreshMax, privateFreshLookbackBlocks, privateProofsPerRefreshMax, privateRescanDepthBlocks, privateScanBlocksMax, privateScanBlocksPerPass,
  privateScanBurstReads, privateScanReadsPerSecond,
} from './private-limits.ts';
import type { PrivateProver } from './private-verify.ts';
import { openPrivateOutput, scanBlockJson, type DecoyRow, type PrivateOutputRow } from './private-scan.ts';
import { saveBrowserWallet, type UnlockedWallet } from './wallet-keys.ts';
import type { WalletDb } from './wallet-db.ts';

/** An output the account holds, opened with its keys. */
export interface HeldOutput {
  readonly row: PrivateOutputRow;
  readonly owned: OwnedOutput;
}

export interface PrivateHistoryRow {
  readonly hash: string;
  readonly type: 'received' | 'sent';
  /** Units: received = what the transaction paid the account; sent = what left it (amount + fee, change netted). */
  readonly amount: bigint;
  /** confirmed: every output and spend of it proven against verified headers; unverified: the node's word only. */
  readonly status: 'pending' | 'confirmed' | 'unverified';
  readonly daaScore: number;
}

export interface PrivateState {
  readonly outputs: readonly HeldOutput[];
  readonly decoys: readonly DecoyRow[];
  readonly sends: readonly PendingPrivateSend[];
  /** The tip's DAA score at the last scan (maturity is counted against it). */
  readonly tipDaaScore: number;
  readonly scannedHeight: number;
}

/** Where a scan is: it started at block `from`, has read through `height` (from − 1: none yet), the tip is `tip`. */
export interface ScanProgress {
  readonly from: number;
  readonly height: number;
  readonly tip: number;
}

/**
 * The block a first scan starts at (private-start.ts): the one stored when the wallet was created or restored, if
 * any; `store` keeps the one a fresh wallet's first scan chose.
 */
export interface ScanStart {
  stored(): number | undefined;
  store(height: number): void;
}

export interface PrivateAccount {
  readonly account: StealthAccount;
  readonly keys: MoneroKeys;
  /** Scans from the cursor to the node's tip, telling `onProgress` after each block; resolves with the state as stored. */
  refresh(onProgress?: (progress: ScanProgress) => void): Promise<PrivateState>;
  state(): Promise<PrivateState>;
}

type BlockJson = { height: number; hash: string; daa_score: number; parent_hashes: string[]; previous_hash: string | null; transactions?: unknown[] };
const settled = (status: string) => status === 'confirmed' || status === 'final';

/** Stealth account 0 of the wallet, created (and the keystore re-sealed) the first time the tab asks for it. */
export async function privateAccountOf(db: WalletDb, unlocked: UnlockedWallet): Promise<StealthAccount> {
  const existing = unlocked.wallet.stealth.list()[0];
  if (existing !== undefined) return existing;
  const created = unlocked.wallet.stealth.create();
  await saveBrowserWallet(db, unlocked);
  return created;
}

/**
 * `fresh`: the wallet's phrase was generated in this tab just now, so the first scan starts
 * privateFreshLookbackBlocks below the tip (for decoys) instead of at genesis.
 */
export function openPrivateAccount(
  link: RpcClient, store: PrivateDb, walletName: string, account: StealthAccount, fresh = false, prover?: PrivateProver, scanStart?: ScanStart,
): PrivateAccount {
  const { keys } = account;
  let tipDaaScore = 0;

  const state = async (): Promise<PrivateState> => {
    const [rows, decoys, sends, cursor] = await Promise.all([store.outputs(walletName), store.decoys(walletName), store.sends(walletName), store.cursor(walletName)]);
    const outputs = rows.flatMap((row) => {
      const owned = openPrivateOutput(keys, row);
      return owned === undefined ? [] : [{ row, owned }];
    });
    return { outputs, decoys, sends, tipDaaScore, scannedHeight: cursor?.height ?? -1 };
  };

  let reads = 0;
  const readBlock = async (params: { height: number } | { hash: string }): Promise<BlockJson> => {
    if (++reads > privateScanBurstReads) await new Promise((resolve) => setTimeout(resolve, 1_000 / privateScanReadsPerSecond));
    return (await getBlock(link, params)) as unknown as BlockJson;
  };

  /** Where to start: after the cursor, or below it when the block there is no longer on the selected chain. */
  const startHeight = async (cursor: ScanCursor | undefined, tipHeight: number): Promise<number> => {
    if (cursor === undefined) {
      const stored = scanStart?.stored();
      if (stored !== undefined) return Math.min(stored, tipHeight);
      if (!fresh) return 0;
      const start = Math.max(0, tipHeight - privateFreshLookbackBlocks);
      scanStart?.store(start);
      return start;
    }
    try {
      const there = await readBlock({ height: cursor.height });
      if (there.hash === cursor.hash) return cursor.height + 1;
    } catch {
      // The chain is shorter than the cursor now: rescan below it.
    }
    return Math.max(0, cursor.height - privateRescanDepthBlocks);
  };

  /** The chain block at `height` after the off-chain parents it merges that this refresh has not read yet. */
  const blocksAt = async (height: number, seenOffChain: Set<string>): Promise<BlockJson[]> => {
    const block = await readBlock({ height });
    const merged: BlockJson[] = [];
    for (const parent of block.parent_hashes) {
      if (parent === block.previous_hash || seenOffChain.has(parent)) continue;
      const read = await readBlock({ hash: parent });
      seenOffChain.add(parent);
      if (!(read as { is_chain_block?: boolean }).is_chain_block) merged.push(read);
    }
    return [...merged, block];
  };

  const refresh = async (onProgress?: (progress: ScanProgress) => void): Promise<PrivateState> => {
    let cursor = await store.cursor(walletName);
    if (cursor !== undefined && cursor.account !== account.text) {
      await store.clear(walletName);
      cursor = undefined;
    }
    reads = 0;
    const tip = await getHeight(link);
    tipDaaScore = prover?.tipDaaScore() ?? tip.daa_score;
    const rows = new Map((await store.outputs(walletName)).map((r) => [r.oneTimeKey, r]));
    const byKeyImage = new Map([...rows.values()].map((r) => [r.keyImage, r]));
    const statusOf = new Map<string, string>();
    const status = async (hash: string) => {
      if (!statusOf.has(hash)) statusOf.set(hash, (await getTransaction(link, { hash: `0x${hash}` })).status);
      return statusOf.get(hash)!;
    };
    const keep = (row: PrivateOutputRow, changed: Map<string, PrivateOutputRow>) => {
      rows.set(row.oneTimeKey, row);
      byKeyImage.set(row.keyImage, row);
      changed.set(row.oneTimeKey, row);
    };

    /** Applies one block's scan; false (nothing applied) while one of its relevant transactions is still pending. */
    const apply = async (body: BlockJson, changed: Map<string, PrivateOutputRow>, decoys: DecoyRow[]): Promise<boolean> => {
      const scan = scanBlockJson(keys, body, new Set(byKeyImage.keys()));
      const verdicts = new Map<string, string>();
      for (const hash of scan.relevant) verdicts.set(hash, await status(hash));
      if ([...verdicts.values()].some((v) => v === 'pending')) return false;
      for (const found of scan.found) {
        if (!settled(verdicts.get(found.txHash)!)) continue;
        // Found again (a rescan): what was proven about it stays.
        keep({ ...rows.get(found.oneTimeKey), ...found, wallet: walletName }, changed);
      }
      for (const spend of scan.spends) {
        const row = byKeyImage.get(spend.keyImage);
        if (row !== undefined && settled(verdicts.get(spend.txHash) ?? 'dropped')) keep({ ...row, spentBy: spend.txHash }, changed);
      }
      decoys.push(...scan.decoys.map((d) => ({ ...d, wallet: walletName })));
      return true;
    };

    let height = await startHeight(cursor, tip.height);
    const from = height;
    onProgress?.({ from, height: from - 1, tip: tip.height });
    const last = Math.min(tip.height, height + privateScanBlocksMax - 1);
    const seenOffChain = new Set<string>();
    let held = false;
    while (height <= last && !held) {
      const changed = new Map<string, PrivateOutputRow>();
      const decoys: DecoyRow[] = [];
      let scanned: ScanCursor | undefined;
      for (let n = 0; n < privateScanBlocksPerPass && height <= last && !held; n++, height++) {
        const bodies = await blocksAt(height, seenOffChain);
        for (const body of bodies) if (!held) held = !(await apply(body, changed, decoys));
        const block = bodies[bodies.length - 1]!;
        if (!held) scanned = { wallet: walletName, account: account.text, height: block.height, hash: block.hash };
        if (!held) onProgress?.({ from, height: block.height, tip: tip.height });
      }
      if (scanned !== undefined) await store.saveScan(scanned, [...changed.values()], decoys);
    }
    if (prover !== undefined) await proveFound(store, walletName, prover);
    // A pending send leaves once the scan found its spend, or when the node no longer knows it as pending.
    for (const send of await store.sends(walletName)) {
      const found = [...rows.values()].some((r) => r.spentBy === send.hash);
      if (found || (await status(send.hash).catch(() => 'dropped')) === 'dropped') await store.deleteSend(walletName, send.hash);
    }
    return state();
  };

  return { account, keys, refresh, state };
}

/** Proves what the scan found (bounded per refresh): the account's outputs and spends, then decoy candidates. */
async function proveFound(store: PrivateDb, walletName: string, prover: PrivateProver): Promise<void> {
  const outputs: PrivateOutputRow[] = [];
  let budget = privateProofsPerRefreshMax;
  // Never checked first, then spends to prove, then the unverified again (a reorganisation may have moved them):
  // outputs a node fabricates by the thousand can delay their own re-checks, not the first check of a real one.
  const rank = (row: PrivateOutputRow) => (row.provenCreatedDaaScore === undefined ? (row.unverified === undefined ? 0 : 2) : 1);
  const rows = (await store.outputs(walletName)).filter((row) => row.provenCreatedDaaScore === undefined || (row.spentBy !== undefined && row.spendProven !== true));
  for (const row of rows.sort((x, y) => rank(x) - rank(y))) {
    if (budget <= 0) break;
    if (row.provenCreatedDaaScore === undefined) {
      budget--;
      const proof = await prover.proveOutput(row.oneTimeKey, row.commitment, row.keyImage);
      const { unverified: _was, ...rest } = row;
      if (proof.state === 'proven') outputs.push({ ...rest, provenCreatedDaaScore: String(proof.createdDaaScore) });
      else if (proof.state === 'spent') {
        const record = await prover.proveRecord(row.oneTimeKey, row.commitment);
        if (record.state === 'proven') outputs.push({ ...rest, provenCreatedDaaScore: String(record.createdDaaScore), spentBy: proof.txHash, spendProven: true });
      } else if (proof.state !== 'failed') outputs.push({ ...row, unverified: `its record is ${proof.state} in the state verified at block ${proof.blockHeight}` });
    } else if (row.spentBy !== undefined && row.spendProven !== true) {
      budget--;
      const spentBy = await prover.proveSpend(row.keyImage);
      if (spentBy !== undefined) outputs.push({ ...row, spentBy, spendProven: true });
    }
  }
  const decoys: DecoyRow[] = [];
  const unproven = (await store.decoys(walletName)).filter((d) => d.provenCreatedDaaScore === undefined && d.refused !== true);
  for (const decoy of unproven.sort((a, b) => b.daaScore - a.daaScore).slice(0, privateDecoyProofsPerRefreshMax)) {
    const proof = await prover.proveRecord(decoy.oneTimeKey, decoy.commitment);
    if (proof.state === 'proven') decoys.push({ ...decoy, provenCreatedDaaScore: String(proof.createdDaaScore) });
    else if (proof.state !== 'failed') decoys.push({ ...decoy, refused: true });
  }
  if (outputs.length > 0 || decoys.length > 0) await store.putProven(outputs, decoys);
}
