/**
 * A count read from a peer's message, bounded by its cap. A count over its cap is a cap violation (ban), not just a
 * malformed message; both score the same (docs/p2p.md "Misbehaviour").
 */
import type { ByteReader } from '../codec/bytes-reader.ts';
import { MessageOverCapError } from './protocol-errors.ts';

export function readCappedCount(r: ByteReader, max: number, what: string): number {
  const count = r.varint(Number.MAX_SAFE_INTEGER, what);
  if (count > max) throw new MessageOverCapError(what, count, max);
  return count;
}
