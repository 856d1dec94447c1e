/**
 * Where the private account's first scan starts (docs/wallet.md "Confidential account"): not at genesis, but at the
 * block stored for the wallet — chosen by the first scan of a wallet created in this tab (its creation height less
 * privateFreshLookbackBlocks, for decoys), or the restore height the user typed when restoring a phrase. Kept in this
 * origin's localStorage beside the wallet's IndexedDB, by wallet name; a height, nothing secret.
 */
import { FieldError } from './form-errors.ts';
import type { ScanStart } from './private-account.ts';

const keyOf = (wallet: string): string => `weft-wallet/private-scan-start/${wallet}`;
/** Typed text longer than this is not a block height anyone means. */
const heightTextCharsMax = 12;

/** The stored start of `wallet`'s private scan (undefined: none stored, or storage refused). */
export function scanStartOf(wallet: string): ScanStart {
  return {
    stored() {
      try {
        const text = localStorage.getItem(keyOf(wallet));
        return text !== null && /^\d{1,12}$/.test(text) ? Number(text) : undefined;
      } catch {
        return undefined;
      }
    },
    store(height) {
      setScanStart(wallet, height);
    },
  };
}

/** Stores `height` as `wallet`'s scan start; undefined forgets it (a new wallet, or a restore without a height). */
export function setScanStart(wallet: string, height: number | undefined): void {
  try {
    if (height === undefined) localStorage.removeItem(keyOf(wallet));
    else localStorage.setItem(keyOf(wallet), String(height));
  } catch {
    // Storage refused: the first scan starts at genesis, as before.
  }
}

/** The restore height as typed: empty is none (scan from genesis); else a block height, or a FieldError. */
export function parseRestoreHeight(text: string): number | undefined {
  const trimmed = text.trim().replace(/[,_\s]/g, '');
  if (trimmed === '') return undefined;
  if (trimmed.length > heightTextCharsMax || !/^\d+$/.test(trimmed)) {
    throw new FieldError('restore-height', 'restore height: expected a block height (a whole number), or nothing to scan from genesis');
  }
  return Number(trimmed);
}
