/**
 * Downloading the state under a proven state root from an untrusted peer (docs/p2p.md "Fast sync"): chunk after
 * chunk from the import's cursor, each verified against the root (verifySnapshotChunk, inside the import's `apply`,
 * before anything of it is written), until the last; then the import's `finish` checks the rebuilt root. Resumable:
 * the import's cursor row says where a killed download stopped, and a new call — with any peer — continues there.
 *
 * A chunk that fails verification ends the download with its SnapshotError (`peerFault`); the caller bans the sender
 * (P2pNode.fetchSnapshot does) and may go on with another peer from the same cursor.
 */
import type { SnapshotChunk } from '../state/snapshot-codec.ts';
import type { SnapshotImport } from '../state/snapshot-import.ts';

/** Where chunks come from: one peer's `getsnapshotchunk` (P2pNode), or anything else that answers the same. */
export interface SnapshotChunkSource {
  /** The chunk of `root` from start key `from`; rejects when the peer refuses (DataUnavailableError) or goes away. */
  chunk(root: Uint8Array, from: Uint8Array): Promise<SnapshotChunk>;
}

export interface SnapshotFetchResult {
  /** The rebuilt root, equal to the import's. */
  readonly root: Uint8Array;
  /** Leaves imported in all (across resumed downloads). */
  readonly entries: number;
  /** Chunks this call fetched. */
  readonly chunks: number;
}

export interface SnapshotFetchOptions {
  /** After each chunk is durable: leaves so far, and where the next chunk starts (undefined after the last). */
  readonly onChunk?: (entries: number, nextKey: Uint8Array | undefined) => void;
}

export async function fetchSnapshot(source: SnapshotChunkSource, target: SnapshotImport, options: SnapshotFetchOptions = {}): Promise<SnapshotFetchResult> {
  let chunks = 0;
  for (let from = target.nextKey; from !== undefined; from = target.nextKey) {
    const chunk = await source.chunk(target.root, from);
    // apply() verifies against the root at the cursor's start key first and writes nothing of a chunk that fails.
    await target.apply(chunk);
    chunks++;
    options.onChunk?.(target.entries, target.nextKey);
  }
  const root = await target.finish();
  return { root, entries: target.entries, chunks };
}
