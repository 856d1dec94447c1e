/**
 * Downloading the trusted data at a proven pruning point (docs/pruning-proof.md "Serving and joining") in pages
 * (paged-fetch.ts), always by the point's hash: a peer whose pruning point moved answers `notfound`. The bytes are
 * decoded here (trusted-data-codec.ts); whether the set holds is checkTrustedData's question, asked by the joiner.
 */
import type { TrustedData } from '../chain/trusted-data.ts';
import { DecodeError } from '../errors.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import { fetchPages, type ProofPage } from './paged-fetch.ts';
import { MessageMalformedError, ProtocolViolationError } from './protocol-errors.ts';
import { decodeTrustedData } from './trusted-data-codec.ts';

/** Data that does not decode or names another point is the peer's fault (ban score 100). */
export async function fetchTrustedData(
  pruningPoint: Uint8Array,
  requestPage: (pruningPoint: Uint8Array, offset: number) => Promise<ProofPage>,
): Promise<TrustedData> {
  const { bytes } = await fetchPages('trusted data', pruningPoint, requestPage);
  let data: TrustedData;
  try {
    data = decodeTrustedData(bytes);
  } catch (error) {
    if (error instanceof DecodeError) throw new MessageMalformedError(`trusted data: ${error.message}`, error);
    throw error;
  }
  if (!equalBytes(data.pruningPoint, pruningPoint)) {
    throw new ProtocolViolationError(`trusted data for ${toHex(data.pruningPoint)} in pages named ${toHex(pruningPoint)}`);
  }
  return data;
}
