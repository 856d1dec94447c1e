/**
 * Fast sync's paged messages (docs/p2p.md "Fast sync"): a joining node asks for the pruning-point proof
 * (`getpruningproof` 0x11 → `pruningproof` 0x12; pruning-proof-codec.ts) and the trusted data at that point
 * (`gettrusteddata` 0x15 → `trusteddata` 0x16; trusted-data-codec.ts), each in the same fixed pages.
 */
import { hashBytes } from '../../codec/header.ts';
import { AssertionError, DecodeError } from '../../errors.ts';
import { readCappedCount } from '../capped-count.ts';
import { p2pPruningProofBytesMax, p2pPruningProofPageBytesMax, p2pTrustedDataBytesMax } from '../limits.ts';
import { largeMessageWriterBytes, type MessageCodec } from './message-codec.ts';

/**
 * A page of the peer's encoded pruning-point proof (or trusted data) from byte `offset`; `pruningPoint` is 32 zero
 * bytes for "the current one", else the point the first page named.
 */
type PageRequest<T extends 'getpruningproof' | 'gettrusteddata'> = { readonly type: T; readonly pruningPoint: Uint8Array; readonly offset: number };
/** Bytes [offset, offset + page.length) of `total`; every page but the last is p2pPruningProofPageBytesMax long. */
type Page<T extends 'pruningproof' | 'trusteddata'> = {
  readonly type: T;
  readonly pruningPoint: Uint8Array;
  readonly total: number;
  readonly offset: number;
  readonly page: Uint8Array;
};

/** Pages are cut at fixed offsets: every page but the last is full, so a proof (or trusted data) has one paging. */
function checkPage(name: string, total: number, offset: number, pageBytes: number, fail: (message: string) => Error): void {
  const expected = Math.min(p2pPruningProofPageBytesMax, total - offset);
  if (total < 1 || offset >= total || offset % p2pPruningProofPageBytesMax !== 0 || pageBytes !== expected) {
    throw fail(`${name} page: ${pageBytes} bytes at offset ${offset} of ${total}, expected ${Math.max(expected, 0)} bytes at a multiple of ${p2pPruningProofPageBytesMax} below the total`);
  }
}

/** `offsetWhat`: the offset field's name in errors ('proof offset', 'trusted data offset'). */
function pageRequestCodec<T extends 'getpruningproof' | 'gettrusteddata'>(type: T, code: number, bytesMax: number, offsetWhat: string): MessageCodec<PageRequest<T>> {
  return {
    type,
    code,
    payloadBytesMax: hashBytes + 8,
    write(w, m) {
      w.bytes(m.pruningPoint, hashBytes, 'pruningPoint');
      w.varint(m.offset, bytesMax, offsetWhat);
    },
    read: (r) => ({ type, pruningPoint: r.bytes(hashBytes, 'pruningPoint'), offset: r.varint(bytesMax, offsetWhat) }),
  };
}

/** `bytesMax`: the most the whole paged value may hold (its total and offsets are bounded by it). */
function pageCodec<T extends 'pruningproof' | 'trusteddata'>(type: T, code: number, bytesMax: number): MessageCodec<Page<T>> {
  return {
    type,
    code,
    payloadBytesMax: hashBytes + 3 * 8 + p2pPruningProofPageBytesMax,
    writerBytes: largeMessageWriterBytes,
    write(w, m) {
      checkPage(m.type, m.total, m.offset, m.page.length, (message) => new AssertionError(message));
      w.bytes(m.pruningPoint, hashBytes, 'pruningPoint');
      w.varint(m.total, bytesMax, `${m.type} total`);
      w.varint(m.offset, bytesMax, `${m.type} offset`);
      w.lengthPrefixed(m.page, p2pPruningProofPageBytesMax, `${m.type} page`);
    },
    read(r) {
      const pruningPoint = r.bytes(hashBytes, 'pruningPoint');
      const total = readCappedCount(r, bytesMax, `${type} total`);
      const offset = r.varint(bytesMax, `${type} offset`);
      const page = r.lengthPrefixed(p2pPruningProofPageBytesMax, `${type} page`);
      checkPage(type, total, offset, page.length, (message) => new DecodeError(message));
      return { type, pruningPoint, total, offset, page };
    },
  };
}

export const getpruningproofCodec = pageRequestCodec('getpruningproof', 0x11, p2pPruningProofBytesMax, 'proof offset');
export const pruningproofCodec = pageCodec('pruningproof', 0x12, p2pPruningProofBytesMax);
export const gettrusteddataCodec = pageRequestCodec('gettrusteddata', 0x15, p2pTrustedDataBytesMax, 'trusted data offset');
export const trusteddataCodec = pageCodec('trusteddata', 0x16, p2pTrustedDataBytesMax);
