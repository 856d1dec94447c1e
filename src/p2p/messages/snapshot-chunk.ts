/**
 * Fast sync's state download (docs/p2p.md "Fast sync"): `getsnapshotchunk` (0x13) asks for the chunk of a state
 * root from a start key, `snapshotchunk` (0x14) answers it in snapshot-codec.ts's encoding, which the asker checks
 * against the root.
 */
import { hashBytes } from '../../codec/header.ts';
import { DecodeError } from '../../errors.ts';
import { snapshotChunkEntriesMax } from '../../limits.ts';
import { decodeSnapshotChunk, encodeSnapshotChunk, snapshotChunkBytesMax, type SnapshotChunk } from '../../state/snapshot-codec.ts';
import { SnapshotError } from '../../state/snapshot-errors.ts';
import { stateKeyBytes } from '../../state/trie-hash.ts';
import { readCappedCount } from '../capped-count.ts';
import { MessageOverCapError } from '../protocol-errors.ts';
import { largeMessageWriterBytes, type MessageCodec } from './message-codec.ts';

/** The chunk of state `root` from start key `from`; `entriesMax` 0 = the server's default (snapshotChunkEntriesMax). */
type GetSnapshotChunkMessage = { readonly type: 'getsnapshotchunk'; readonly root: Uint8Array; readonly from: Uint8Array; readonly entriesMax: number };
/** The answer: the chunk of `root` from `from`, checked by the requester against `root`. */
type SnapshotChunkMessage = { readonly type: 'snapshotchunk'; readonly root: Uint8Array; readonly from: Uint8Array; readonly chunk: SnapshotChunk };

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

export const getsnapshotchunkCodec: MessageCodec<GetSnapshotChunkMessage> = {
  type: 'getsnapshotchunk',
  code: 0x13,
  payloadBytesMax: hashBytes + stateKeyBytes + 8,
  write(w, m) {
    w.bytes(m.root, hashBytes, 'root');
    w.bytes(m.from, stateKeyBytes, 'from');
    w.varint(m.entriesMax, snapshotChunkEntriesMax, 'entriesMax');
  },
  read(r) {
    const root = r.bytes(hashBytes, 'root');
    const from = r.bytes(stateKeyBytes, 'from');
    return { type: 'getsnapshotchunk', root, from, entriesMax: readCappedCount(r, snapshotChunkEntriesMax, 'entriesMax') };
  },
};

export const snapshotchunkCodec: MessageCodec<SnapshotChunkMessage> = {
  type: 'snapshotchunk',
  code: 0x14,
  payloadBytesMax: hashBytes + stateKeyBytes + snapshotChunkBytesMax,
  writerBytes: largeMessageWriterBytes,
  write(w, m) {
    w.bytes(m.root, hashBytes, 'root');
    w.bytes(m.from, stateKeyBytes, 'from');
    w.bytes(encodeSnapshotChunk(m.chunk));
  },
  read(r) {
    const root = r.bytes(hashBytes, 'root');
    const from = r.bytes(stateKeyBytes, 'from');
    return { type: 'snapshotchunk', root, from, chunk: readChunk(r.bytes(r.remaining, 'chunk')) };
  },
};
