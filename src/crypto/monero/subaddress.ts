/**
 * Monero subaddresses (wallet2 `get_subaddress_secret_key`, note §1.4): for index (major, minor) ≠ (0, 0),
 * m = Hs("SubAddr\0" ‖ a ‖ LE32(major) ‖ LE32(minor)) — the 8-byte prefix includes its NUL — and the subaddress keys
 * are D = B + m·G (spend) and C = a·D (view). Index (0, 0) is the primary address (B, a·G). A sender paying a
 * subaddress publishes R = r·D instead of r·G; stealth.ts then derives outputs as usual.
 */
import { concatBytes } from '../../util/bytes.ts';
import { mulBase, mulSecret, type Point } from './point.ts';
import { encodeScalar, hashToScalar, mod } from './scalar.ts';

const subaddressPrefix = new TextEncoder().encode('SubAddr\0');

export interface SubaddressIndex {
  readonly major: number;
  readonly minor: number;
}

function le32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n >>> 0, true);
  return out;
}

/** m = Hs("SubAddr\0" ‖ a ‖ LE32(major) ‖ LE32(minor)). */
function subaddressSecret(viewSecret: bigint, index: SubaddressIndex): bigint {
  return hashToScalar(concatBytes(subaddressPrefix, encodeScalar(viewSecret), le32(index.major), le32(index.minor)));
}

/** The public spend and view keys of a subaddress ((0, 0) gives the primary address). */
export function subaddressPublicKeys(viewSecret: bigint, spendPublic: Point, index: SubaddressIndex): { spend: Point; view: Point } {
  if (index.major === 0 && index.minor === 0) return { spend: spendPublic, view: mulBase(viewSecret) };
  const spend = spendPublic.add(mulBase(subaddressSecret(viewSecret, index)));
  return { spend, view: mulSecret(spend, viewSecret) };
}

/** The spend secret of a subaddress: b + m (b itself for (0, 0)). */
export function subaddressSpendSecret(viewSecret: bigint, spendSecret: bigint, index: SubaddressIndex): bigint {
  if (index.major === 0 && index.minor === 0) return mod(spendSecret);
  return mod(spendSecret + subaddressSecret(viewSecret, index));
}
