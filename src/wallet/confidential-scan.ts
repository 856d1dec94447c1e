/**
 * Scanning transactions for a wallet's confidential outputs (isomorphic: the node wallet and a browser tab scan
 * the same way, docs/privacy.md "Wallets"). One key derivation per (transaction, stealth account), then the view
 * tag rules out ~255/256 of foreign outputs before any further work. Every output seen is also reported, so the
 * caller can keep the decoy pool it draws ring members from.
 */
import { TxKind } from '../codec/transaction-kinds.ts';
import type { AnyTransaction } from '../kinds/transaction-codec.ts';
import { txHash } from '../kinds/transaction-codec.ts';
import { generateKeyImage } from '../crypto/monero/key-image.ts';
import { encodePoint } from '../crypto/monero/point.ts';
import { zeroCommit } from '../crypto/monero/commitment.ts';
import type { HiddenOutput, PublicOutput, RingMember } from '../kinds/confidential/codec.ts';
import type { SignedRingSpend } from '../kinds/confidential/ring-spend.ts';
import type { ShieldTransaction } from '../kinds/confidential/shield.ts';
import { scanOutput, type OwnedOutput } from './confidential.ts';
import type { StealthAccount } from './stealth-accounts.ts';

export interface ScannedOutput extends OwnedOutput {
  /** The stealth address of the account it pays (unique across wallets, unlike an account index). */
  readonly account: string;
  readonly txHash: Uint8Array;
  readonly outputIndex: number;
  /** x·Hp(P): its appearance in the key-image set marks the output spent. */
  readonly keyImage: Uint8Array;
}

export interface TransactionScan {
  readonly owned: ScannedOutput[];
  /** Every output the transaction creates, as a ring member (decoy candidate). */
  readonly outputs: RingMember[];
  /** Key images the transaction spends. */
  readonly keyImages: Uint8Array[];
}

const empty: TransactionScan = Object.freeze({ owned: [], outputs: [], keyImages: [] });

export function isConfidentialTransaction(tx: AnyTransaction): boolean {
  return tx.kind === TxKind.Shield || tx.kind === TxKind.ConfidentialTransfer || tx.kind === TxKind.Unshield;
}

type ScanOutput = { oneTimeKey: Uint8Array; viewTag: number; commitment: Uint8Array; encryptedAmount?: Uint8Array; publicAmount?: bigint };

function outputsOf(tx: AnyTransaction): ScanOutput[] {
  if (tx.kind === TxKind.Shield) {
    return (tx as ShieldTransaction).outputs.map((o: PublicOutput) => ({ oneTimeKey: o.oneTimeKey, viewTag: o.viewTag, commitment: encodePoint(zeroCommit(o.amount)), publicAmount: o.amount }));
  }
  return (tx as SignedRingSpend).outputs.map((o: HiddenOutput) => ({ ...o }));
}

/** What `tx` holds for the given accounts; non-confidential kinds hold nothing. */
export function scanTransaction(accounts: readonly StealthAccount[], tx: AnyTransaction): TransactionScan {
  if (!isConfidentialTransaction(tx)) return empty;
  const outputs = outputsOf(tx);
  const spend = tx as Partial<SignedRingSpend> & { txPublicKey: Uint8Array };
  const keyImages = (spend.inputs ?? []).map((input) => input.keyImage);
  const owned: ScannedOutput[] = [];
  const hash = txHash(tx);
  for (const account of accounts) {
    outputs.forEach((output, outputIndex) => {
      let found: OwnedOutput | undefined;
      try {
        found = scanOutput(account.keys, spend.txPublicKey, outputIndex, output);
      } catch {
        // A transaction key that is no valid point pays nobody (consensus refuses it anyway).
        return;
      }
      if (found === undefined) return;
      owned.push({ ...found, account: account.text, txHash: hash, outputIndex, keyImage: encodePoint(generateKeyImage(found.oneTimeKey, found.secretKey)) });
    });
  }
  return { owned, outputs: outputs.map((o) => ({ oneTimeKey: o.oneTimeKey, commitment: o.commitment })), keyImages };
}
