/**
 * The fast-sync messages' payloads (docs/p2p.md "Fast sync"; framed, capped and dispatched by messages.ts like every
 * other type): a pruning-point proof and the trusted data at its point, each in the same fixed pages, and state
 * snapshot chunks in snapshot-codec.ts's encoding.
 */
import type { ByteReader } from '../codec/bytes-reader.ts';
import type { ByteWriter } from '../codec/bytes-writer.ts';
import { hashBytes } from '../codec/header.ts';
import { AssertionError, DecodeError } from '../errors.ts';
import { snapshotChunkEntriesMax } from '../limits.ts';
import { decodeSnapshotChunk, encodeSnapshotChunk, snapshotChunkBytesMax, type SnapshotChunk } from '../state/snapshot-codec.ts';
import { SnapshotError } from '../state/snapshot-errors.ts';
import { stateKeyBytes } from '../state/trie-hash.ts';
import { p2pPruningProofBytesMax, p2pPruningProofPageBytesMax, p2pTrustedDataBytesMax } from './limits.ts';
import { readCappedCount } from './capped-count.ts';
import { MessageOverCapError } from './protocol-errors.ts';

export type FastSyncMessage =
  /**
   * A page of the peer's encoded pruning-point proof (pruning-proof-codec.ts) from byte `offset`; `pruningPoint` is
   * 32 zero bytes for "the current one", else the point the first page named.
   */
  | { readonly type: 'getpruningproof'; readonly pruningPoint: Uint8Array; readonly offset: number }
  /** Proof bytes [offset, offset + page.length) of `total`; every page but the last is p2pPruningProofPageBytesMax long. */
  | { readonly type: 'pruningproof'; readonly pruningPoint: Uint8Array; readonly total: number; readonly offset: number; readonly page: Uint8Array }
  /** The chunk of state `root` from start key `from`; `entriesMax` 0 = the server's default (snapshotChunkEntriesMax). */
  | { readonly type: 'getsnapshotchunk'; readonly root: Uint8Array; readonly from: Uint8Array; readonly entriesMax: number }
  /** The answer: the chunk of `root` from `from` (snapshot-codec.ts), checked by the requester against `root`. */
  | { readonly type: 'snapshotchunk'; readonly root: Uint8Array; readonly from: Uint8Array; readonly chunk: SnapshotChunk }
  /** A page of the peer's encoded trusted data at `pruningPoint` (trusted-data-codec.ts), paged like the proof; zeros = its current point. */
  | { readonly type: 'gettrusteddata'; readonly pruningPoint: Uint8Array; readonly offset: number }
  /** Trusted-data bytes [offset, offset + page.length) of `total`, cut like proof pages. */
  | { readonly type: 'trusteddata'; readonly pruningPoint: Uint8Array; readonly total: number; readonly offset: number; readonly page: Uint8Array };

/** The two paged payloads: a pruning-point proof, and the trusted data at that point. */
type PagedName = 'pruningproof' | 'trusteddata';
const pagedBytesMax: Readonly<Record<PagedName, number>> = { pruningproof: p2pPruningProofBytesMax, trusteddata: p2pTrustedDataBytesMax };

/** Byte caps of the payloads (the type byte excluded): a proof page or a chunk, and their small headers. */
export const fastSyncPayloadBytesMax: Readonly<Record<FastSyncMessage['type'], number>> = {
  getpruningproof: hashBytes + 8,
  pruningproof: hashBytes + 3 * 8 + p2pPruningProofPageBytesMax,
  getsnapshotchunk: hashBytes + stateKeyBytes + 8,
  snapshotchunk: hashBytes + stateKeyBytes + snapshotChunkBytesMax,
  gettrusteddata: hashBytes + 8,
  trusteddata: hashBytes + 3 * 8 + p2pPruningProofPageBytesMax,
};


/** Pages are cut at fixed offsets: every page but the last is full, so a proof (or trusted data) has one paging. */
function checkPage(name: PagedName, total: number, offset: number, pageBytes: number, fail: (message: string) => Error): void {
  const expected = Math.min(p2pPruningProofPageBytesMax, total - offset);
  if (total < 1 || offset >= total || offset % p2pPruningProofPageBytesMax !== 0 || pageBytes !== expected) {
    throw fail(`${name} page: ${pageBytes} bytes at offset ${offset} of ${total}, expected ${Math.max(expected, 0)} bytes at a multiple of ${p2pPruningProofPageBytesMax} below the total`);
  }
}

function writePage(w: ByteWriter, m: Extract<FastSyncMessage, { type: PagedName }>): void {
  const max = pagedBytesMax[m.type];
  checkPage(m.type, m.total, m.offset, m.page.length, (message) => new AssertionError(message));
  w.bytes(m.pruningPoint, hashBytes, 'pruningPoint');
  w.varint(m.total, max, `${m.type} total`);
  w.varint(m.offset, max, `${m.type} offset`);
  w.lengthPrefixed(m.page, p2pPruningProofPageBytesMax, `${m.type} page`);
}

function readPage(name: PagedName, r: ByteReader): Extract<FastSyncMessage, { type: PagedName }> {
  const max = pagedBytesMax[name];
  const pruningPoint = r.bytes(hashBytes, 'pruningPoint');
  const total = readCappedCount(r, max, `${name} total`);
  const offset = r.varint(max, `${name} offset`);
  const page = r.lengthPrefixed(p2pPruningProofPageBytesMax, `${name} page`);
  checkPage(name, total, offset, page.length, (message) => new DecodeError(message));
  return { type: name, pruningPoint, total, offset, page };
}

/** A chunk that does not decode is a malformed message; one over its bounds, an over-cap one (both ban 100). */
function readChunk(bytes: Uint8Array): SnapshotChunk {
  try {
    return decodeSnapshotChunk(bytes);
  } catch (error) {
    if (!(error instanceof SnapshotError)) throw error;
    if (error.reason === 'chunk-too-large') throw new MessageOverCapError(`snapshotchunk: ${error.message}`, bytes.length, snapshotChunkBytesMax);
    throw new DecodeError(`snapshot chunk: ${error.message}`);
  }
}

export function writeFastSyncPayload(w: ByteWriter, m: FastSyncMessage): void {
  switch (m.type) {
    case 'getpruningproof':
      w.bytes(m.pruningPoint, hashBytes, 'pruningPoint');
      return w.varint(m.offset, p2pPruningProofBytesMax, 'proof offset');
    case 'pruningproof':
    case 'trusteddata':
      return writePage(w, m);
    case 'gettrusteddata':
      w.bytes(m.pruningPoint, hashBytes, 'pruningPoint');
      return w.varint(m.offset, p2pTrustedDataBytesMax, 'trusted data offset');
    case 'getsnapshotchunk':
      w.bytes(m.root, hashBytes, 'root');
      w.bytes(m.from, stateKeyBytes, 'from');
      return w.varint(m.entriesMax, snapshotChunkEntriesMax, 'entriesMax');
    case 'snapshotchunk':
      w.bytes(m.root, hashBytes, 'root');
      w.bytes(m.from, stateKeyBytes, 'from');
      return w.bytes(encodeSnapshotChunk(m.chunk));
  }
}

/** Throws DecodeError (malformed) or MessageOverCapError; messages.ts maps both to ban-scored errors. */
export function readFastSyncPayload(name: FastSyncMessage['type'], r: ByteReader): FastSyncMessage {
  switch (name) {
    case 'getpruningproof':
      return { type: 'getpruningproof', pruningPoint: r.bytes(hashBytes, 'pruningPoint'), offset: r.varint(p2pPruningProofBytesMax, 'proof offset') };
    case 'pruningproof':
    case 'trusteddata':
      return readPage(name, r);
    case 'gettrusteddata':
      return { type: 'gettrusteddata', pruningPoint: r.bytes(hashBytes, 'pruningPoint'), offset: r.varint(p2pTrustedDataBytesMax, 'trusted data offset') };
    case 'getsnapshotchunk': {
      const root = r.bytes(hashBytes, 'root');
      const from = r.bytes(stateKeyBytes, 'from');
      return { type: 'getsnapshotchunk', root, from, entriesMax: readCappedCount(r, snapshotChunkEntriesMax, 'entriesMax') };
    }
    case 'snapshotchunk': {
      const root = r.bytes(hashBytes, 'root');
      const from = r.bytes(stateKeyBytes, 'from');
      return { type: 'snapshotchunk', root, from, chunk: readChunk(r.bytes(r.remaining, 'chunk')) };
    }
  }
}
