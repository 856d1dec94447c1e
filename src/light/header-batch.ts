/**
 * One write of verified headers packed into a single byte string, so IndexedDB stores a page as one record
 * instead of one record per header: per-record costs (a request object, its events, a structured clone) were
 * most of the tab's light-sync time (docs/performance.md). Layout, repeated: hash (32) ‖ length (u16 BE) ‖ header.
 */
import type { StoredHeader } from './light-store.ts';

const hashBytes = 32;
const lengthBytes = 2;
const headerBytesMax = 0xffff;

export class HeaderBatchError extends Error {
  override readonly name = 'HeaderBatchError';
}

export function packHeaderBatch(headers: readonly StoredHeader[]): Uint8Array {
  let size = 0;
  for (const h of headers) {
    if (h.hash.length !== hashBytes) throw new HeaderBatchError(`header ${h.seq} has a ${h.hash.length}-byte hash`);
    if (h.bytes.length > headerBytesMax) throw new HeaderBatchError(`header ${h.seq} is ${h.bytes.length} bytes, over ${headerBytesMax}`);
    size += hashBytes + lengthBytes + h.bytes.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const h of headers) {
    out.set(h.hash, at);
    out[at + hashBytes] = h.bytes.length >>> 8;
    out[at + hashBytes + 1] = h.bytes.length & 0xff;
    out.set(h.bytes, at + hashBytes + lengthBytes);
    at += hashBytes + lengthBytes + h.bytes.length;
  }
  return out;
}

/** The inverse of packHeaderBatch; `firstSeq` numbers the headers. Truncated input throws (stored bytes are input). */
export function unpackHeaderBatch(packed: Uint8Array, firstSeq: number): StoredHeader[] {
  const out: StoredHeader[] = [];
  for (let at = 0; at < packed.length; ) {
    if (at + hashBytes + lengthBytes > packed.length) throw new HeaderBatchError(`batch at seq ${firstSeq} is truncated at byte ${at}`);
    const length = (packed[at + hashBytes]! << 8) | packed[at + hashBytes + 1]!;
    const start = at + hashBytes + lengthBytes;
    if (start + length > packed.length) throw new HeaderBatchError(`batch at seq ${firstSeq} is truncated at byte ${start}`);
    out.push({ seq: firstSeq + out.length, hash: packed.slice(at, at + hashBytes), bytes: packed.slice(start, start + length) });
    at = start + length;
  }
  return out;
}
