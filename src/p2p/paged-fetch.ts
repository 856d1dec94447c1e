/**
 * Downloading a paged answer (docs/p2p.md "Fast sync"): a pruning-point proof or the trusted data at a pruning point.
 * The first page names the point and the size; the rest are asked for by that point, so a peer whose point moves
 * mid-download answers `notfound` instead of mixing two versions. Decoding the bytes is the caller's business.
 */
import { equalBytes, toHex } from '../util/bytes.ts';
import { p2pPruningProofPageBytesMax } from './limits.ts';
import { ProtocolViolationError } from './protocol-errors.ts';

/** One page of a paged answer as it came off the wire. */
export interface ProofPage {
  readonly pruningPoint: Uint8Array;
  readonly total: number;
  readonly offset: number;
  readonly page: Uint8Array;
}

export interface FetchedPages {
  readonly pruningPoint: Uint8Array;
  readonly bytes: Uint8Array;
}

/** `pruningPoint` zeros = whatever the peer's current point is (its first page says which). */
export async function fetchPages(
  what: string,
  pruningPoint: Uint8Array,
  requestPage: (pruningPoint: Uint8Array, offset: number) => Promise<ProofPage>,
): Promise<FetchedPages> {
  const first = await requestPage(pruningPoint, 0);
  if (!equalBytes(pruningPoint, new Uint8Array(32)) && !equalBytes(first.pruningPoint, pruningPoint)) {
    throw new ProtocolViolationError(`${what} page names pruning point ${toHex(first.pruningPoint)}, asked for ${toHex(pruningPoint)}`);
  }
  const bytes = new Uint8Array(first.total);
  bytes.set(first.page, 0);
  for (let offset = first.page.length; offset < first.total; offset += p2pPruningProofPageBytesMax) {
    const next = await requestPage(first.pruningPoint, offset);
    if (next.total !== first.total) {
      throw new ProtocolViolationError(`${what} page at ${offset} says it has ${next.total} bytes; the first page said ${first.total}`);
    }
    bytes.set(next.page, offset);
  }
  return { pruningPoint: first.pruningPoint, bytes };
}
