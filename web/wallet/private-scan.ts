/**
 * The tab's scan of one block for its confidential account (docs/privacy.md "Wallets", docs/wallet.md "Confidential
 * account"): the block's confidential transactions as get_block shows them publicly (tx public key, outputs with
 * one-time key, view tag and commitment or public amount, ring inputs with key images) are checked with the view
 * key through src/wallet/confidential.ts `scanOutput` — the view tag first, so ~255/256 of foreign outputs cost one
 * hash — and the same pass collects the key images the block spends and every output as a decoy candidate.
 *
 * What comes out is public chain data only (plus which outputs are ours): amounts, masks and one-time secrets are
 * re-derived from the keys when the wallet is unlocked (`openPrivateOutput`), never stored.
 */
import { zeroCommit } from '../../src/crypto/monero/commitment.ts';
import { generateKeyImage } from '../../src/crypto/monero/key-image.ts';
import type { MoneroKeys } from '../../src/crypto/monero/keys.ts';
import { encodePoint } from '../../src/crypto/monero/point.ts';
import { fromHex, strip0x, toHex } from '../../src/util/bytes.ts';
import { scanOutput, type OwnedOutput } from '../../src/wallet/confidential.ts';
import { parseCoinText } from './send-check.ts';

/** One of the account's outputs as IndexedDB keeps it: what the chain shows, which output, and the spend. */
export interface PrivateOutputRow {
  readonly wallet: string;
  readonly oneTimeKey: string;
  readonly txHash: string;
  readonly outputIndex: number;
  readonly txPublicKey: string;
  readonly viewTag: number;
  readonly commitment: string;
  /** ecdhInfo of a hidden amount (ring spends), or the public amount in units (shields). */
  readonly encryptedAmount?: string;
  readonly publicAmount?: string;
  /** DAA score of the chain block that carried it (maturity counts from the block that accepts it, one later). */
  readonly daaScore: number;
  /** x·Hp(P), hex: seen in a later transaction's inputs, it marks this output spent. */
  readonly keyImage: string;
  readonly spentBy?: string;
  /**
   * Set once proven (private-verify.ts): its confidential_output record is present with this commitment and its key
   * image was unspent; the record's created DAA score, as text (maturity counts from it). Only such outputs count.
   */
  readonly provenCreatedDaaScore?: string;
  /** Why it does not count (record absent, another commitment): shown as "unverified". */
  readonly unverified?: string;
  /** The spend is proven: the key image's record names `spentBy`. */
  readonly spendProven?: boolean;
}

/** A mature-able output of anyone's, as a ring member: its key and stored commitment. */
export interface DecoyRow {
  readonly wallet: string;
  readonly oneTimeKey: string;
  readonly commitment: string;
  readonly daaScore: number;
  /** Proven present with this commitment (private-verify.ts): its record's created DAA score, as text. */
  readonly provenCreatedDaaScore?: string;
  /** Proven absent or with another commitment: never a ring member. */
  readonly refused?: boolean;
}

export interface BlockScan {
  /** Outputs paying the account, by transaction. */
  readonly found: Omit<PrivateOutputRow, 'wallet'>[];
  /** Key images spent by the block's transactions, with the spending transaction. */
  readonly spends: { readonly keyImage: string; readonly txHash: string }[];
  readonly decoys: Omit<DecoyRow, 'wallet'>[];
  /** Transactions of the block that pay or spend the account (their acceptance is checked before they count). */
  readonly relevant: string[];
}

interface JsonOutput {
  one_time_key?: unknown;
  view_tag?: unknown;
  commitment?: unknown;
  encrypted_amount?: unknown;
  amount_exact?: unknown;
}
interface JsonTransaction {
  hash?: unknown;
  kind?: unknown;
  tx_public_key?: unknown;
  outputs?: unknown;
  inputs?: unknown;
}

const confidentialKinds = new Set(['shield', 'confidential_transfer', 'unshield']);
const hexOf = (value: unknown, bytes: number): string | undefined =>
  typeof value === 'string' && new RegExp(`^(0x)?[0-9a-f]{${2 * bytes}}$`).test(value) ? strip0x(value) : undefined;

/**
 * Scans one block's JSON (get_block with transactions). Malformed entries are skipped, never trusted: a node that
 * lies about a transaction can at worst hide an output (acceptance is checked with get_transaction before it counts).
 */
export function scanBlockJson(keys: MoneroKeys, block: { daa_score: number; transactions?: readonly unknown[] }, ownKeyImages: ReadonlySet<string>): BlockScan {
  const scan: BlockScan = { found: [], spends: [], decoys: [], relevant: [] };
  for (const entry of block.transactions ?? []) {
    const tx = entry as JsonTransaction;
    if (!confidentialKinds.has(tx.kind as string)) continue;
    const txHash = hexOf(tx.hash, 32);
    const txPublicKey = hexOf(tx.tx_public_key, 32);
    if (txHash === undefined || txPublicKey === undefined) continue;
    let relevant = false;
    for (const input of Array.isArray(tx.inputs) ? tx.inputs : []) {
      const keyImage = hexOf((input as { key_image?: unknown }).key_image, 32);
      if (keyImage === undefined) continue;
      scan.spends.push({ keyImage, txHash });
      relevant ||= ownKeyImages.has(keyImage);
    }
    const outputs = (Array.isArray(tx.outputs) ? tx.outputs : []) as JsonOutput[];
    outputs.forEach((output, outputIndex) => {
      const oneTimeKey = hexOf(output.one_time_key, 32);
      const viewTag = output.view_tag;
      if (oneTimeKey === undefined || typeof viewTag !== 'number') return;
      const publicAmount = typeof output.amount_exact === 'string' ? parseCoinText(output.amount_exact, 'amount') : undefined;
      const commitment = publicAmount !== undefined ? toHex(encodePoint(zeroCommit(publicAmount))) : hexOf(output.commitment, 32);
      const encryptedAmount = hexOf(output.encrypted_amount, 8);
      if (commitment === undefined || (publicAmount === undefined && encryptedAmount === undefined)) return;
      scan.decoys.push({ oneTimeKey, commitment, daaScore: block.daa_score });
      const row = {
        oneTimeKey,
        txHash,
        outputIndex,
        txPublicKey,
        viewTag,
        commitment,
        ...(publicAmount !== undefined ? { publicAmount: publicAmount.toString() } : { encryptedAmount: encryptedAmount! }),
        daaScore: block.daa_score,
      };
      const owned = openRow(keys, row);
      if (owned === undefined) return;
      scan.found.push({ ...row, keyImage: toHex(encodePoint(generateKeyImage(owned.oneTimeKey, owned.secretKey))) });
      relevant = true;
    });
    if (relevant) scan.relevant.push(txHash);
  }
  return scan;
}

type ScanFields = Pick<PrivateOutputRow, 'oneTimeKey' | 'txPublicKey' | 'outputIndex' | 'viewTag' | 'commitment' | 'encryptedAmount' | 'publicAmount'>;

function openRow(keys: MoneroKeys, row: ScanFields): OwnedOutput | undefined {
  try {
    return scanOutput(keys, fromHex(row.txPublicKey), row.outputIndex, {
      oneTimeKey: fromHex(row.oneTimeKey),
      viewTag: row.viewTag,
      commitment: fromHex(row.commitment),
      ...(row.publicAmount !== undefined ? { publicAmount: BigInt(row.publicAmount) } : { encryptedAmount: fromHex(row.encryptedAmount!) }),
    });
  } catch {
    // A tx public key that is no valid point pays nobody (consensus refuses it anyway).
    return undefined;
  }
}

/** The spendable output behind a stored row (secret key, mask, amount), re-derived with the unlocked keys. */
export function openPrivateOutput(keys: MoneroKeys, row: PrivateOutputRow): OwnedOutput | undefined {
  return openRow(keys, row);
}
