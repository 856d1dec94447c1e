/**
 * A state snapshot chunk and its one binary encoding (docs/state-trie.md "Snapshots"), the payload a syncing node
 * downloads, chunk by chunk, to rebuild the state trie at a proven pruning point. A chunk is the leaves with key ≥ a
 * start key, in ascending order, and a range proof: the subtrees left of the start key's path and right of the last
 * leaf's path, as hashes. Everything between is rebuilt from the leaves themselves (src/state/snapshot.ts).
 *
 * Little-endian, canonical (one encoding per chunk; trailing bytes refused):
 *   flags u8 (bit 0: more chunks follow; other bits 0) || leaf count u16
 *   || per leaf: key (32) || value length u16 (≤ stateValueBytesMax) || value
 *   || left path:  depth u16 (≤ 256) || terminal u8 (0 empty, 1 a leaf left of the start key, 2 the first leaf)
 *                  || presence bitmap ⌈depth/8⌉ || the non-empty siblings (32 each, root side first)
 *                  || terminal 1 only: that leaf's key (32) || value hash (32)
 *   || right path (only when the count is not 0): depth u16 || presence bitmap || the non-empty siblings
 * The next start key is not sent: it is the last leaf's key plus one.
 */
import { snapshotChunkEntriesMax, snapshotChunkLeafBytesMax } from '../limits.ts';
import { SnapshotError } from './snapshot-errors.ts';
import { isEmptyHash, stateDepthMax, stateHashBytes, stateKeyBytes, stateValueBytesMax } from './trie-hash.ts';

export interface SnapshotLeaf {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** Where the start key's path ends in the trie: nothing, a leaf of a smaller key, or the chunk's first leaf. */
type SnapshotLeftTerminal =
  | { readonly kind: 'empty' }
  | { readonly kind: 'leaf'; readonly key: Uint8Array; readonly valueHash: Uint8Array }
  | { readonly kind: 'chunk' };

/**
 * A path of the range proof: its depth and one entry per level, root side first. Only the siblings outside the
 * chunk's range are sent (left of the start key's path, right of the last leaf's path); every other level holds the
 * empty hash here and is rebuilt from the leaves.
 */
export interface SnapshotPath {
  readonly depth: number;
  readonly siblings: readonly Uint8Array[];
}

export interface SnapshotChunk {
  readonly leaves: readonly SnapshotLeaf[];
  readonly left: SnapshotPath & { readonly terminal: SnapshotLeftTerminal };
  /** The last leaf's path; undefined exactly when the chunk has no leaves. */
  readonly right: SnapshotPath | undefined;
  /** The start key of the next chunk (the last leaf's key plus one), or undefined when this chunk is the last. */
  readonly nextKey: Uint8Array | undefined;
}

const terminalByte = { empty: 0, leaf: 1, chunk: 2 } as const;
const leafHeaderBytes = stateKeyBytes + 2;
const pathBytesMax = 2 + 1 + stateDepthMax / 8 + stateDepthMax * stateHashBytes + stateKeyBytes + stateHashBytes;
/** The largest encoded chunk: full leaves and two full-depth paths (~1.07 MB). */
export const snapshotChunkBytesMax = 3 + snapshotChunkLeafBytesMax + 2 * pathBytesMax;

const malformed = (message: string) => new SnapshotError('chunk-malformed', message);

/** Bytes a leaf takes in the encoding (what snapshotChunkLeafBytesMax counts). */
export function snapshotLeafBytes(value: Uint8Array): number {
  return leafHeaderBytes + value.length;
}

/** The key after `key` in byte order, or undefined for the last key (all 0xff). */
export function nextStateKey(key: Uint8Array): Uint8Array | undefined {
  const next = key.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] !== 0xff) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  return undefined;
}

function pathSize(path: SnapshotPath): number {
  let present = 0;
  for (const sibling of path.siblings) if (!isEmptyHash(sibling)) present++;
  return 2 + Math.ceil(path.depth / 8) + present * stateHashBytes;
}

function checkPath(path: SnapshotPath, what: string): void {
  if (!Number.isInteger(path.depth) || path.depth < 0 || path.depth > stateDepthMax) {
    throw malformed(`${what} path depth is ${path.depth}, expected 0..${stateDepthMax}`);
  }
  if (path.siblings.length !== path.depth) {
    throw malformed(`${what} path has ${path.siblings.length} siblings for depth ${path.depth}`);
  }
  for (const sibling of path.siblings) {
    if (sibling.length !== stateHashBytes) throw malformed(`${what} sibling has ${sibling.length} bytes, expected 32`);
  }
}

export function encodeSnapshotChunk(chunk: SnapshotChunk): Uint8Array {
  checkPath(chunk.left, 'left');
  if (chunk.right !== undefined) checkPath(chunk.right, 'right');
  if ((chunk.right === undefined) !== (chunk.leaves.length === 0)) {
    throw malformed('a chunk has a right path exactly when it has leaves');
  }
  if (chunk.leaves.length > snapshotChunkEntriesMax) {
    throw new SnapshotError('chunk-too-large', `chunk has ${chunk.leaves.length} leaves, expected at most ${snapshotChunkEntriesMax}`);
  }
  let size = 3 + pathSize(chunk.left) + 1 + (chunk.right === undefined ? 0 : pathSize(chunk.right));
  if (chunk.left.terminal.kind === 'leaf') size += stateKeyBytes + stateHashBytes;
  for (const leaf of chunk.leaves) {
    if (leaf.key.length !== stateKeyBytes || leaf.value.length > stateValueBytesMax) {
      throw malformed(`chunk leaf has a ${leaf.key.length}-byte key and a ${leaf.value.length}-byte value`);
    }
    size += snapshotLeafBytes(leaf.value);
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = chunk.nextKey === undefined ? 0 : 1;
  view.setUint16(1, chunk.leaves.length, true);
  let at = 3;
  for (const leaf of chunk.leaves) {
    out.set(leaf.key, at);
    view.setUint16(at + stateKeyBytes, leaf.value.length, true);
    out.set(leaf.value, at + leafHeaderBytes);
    at += snapshotLeafBytes(leaf.value);
  }
  const writePath = (path: SnapshotPath, terminal?: SnapshotLeftTerminal): void => {
    view.setUint16(at, path.depth, true);
    at += 2;
    if (terminal !== undefined) out[at++] = terminalByte[terminal.kind];
    const bitmap = at;
    at += Math.ceil(path.depth / 8);
    path.siblings.forEach((sibling, i) => {
      if (isEmptyHash(sibling)) return;
      out[bitmap + (i >>> 3)]! |= 1 << (i & 7);
      out.set(sibling, at);
      at += stateHashBytes;
    });
  };
  writePath(chunk.left, chunk.left.terminal);
  if (chunk.left.terminal.kind === 'leaf') {
    out.set(chunk.left.terminal.key, at);
    out.set(chunk.left.terminal.valueHash, at + stateKeyBytes);
    at += stateKeyBytes + stateHashBytes;
  }
  if (chunk.right !== undefined) writePath(chunk.right);
  return out;
}

/** Decodes one chunk; throws SnapshotError ('chunk-malformed', 'chunk-too-large', 'chunk-out-of-range'). */
export function decodeSnapshotChunk(bytes: Uint8Array): SnapshotChunk {
  if (bytes.length > snapshotChunkBytesMax) {
    throw new SnapshotError('chunk-too-large', `chunk has ${bytes.length} bytes, expected at most ${snapshotChunkBytesMax}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number, what: string): void => {
    if (at + n > bytes.length) throw malformed(`chunk ends inside ${what} at offset ${at}: needs ${n} more bytes`);
  };
  need(3, 'the header');
  const flags = bytes[0]!;
  if (flags > 1) throw malformed(`chunk flags are ${flags}, expected 0 or 1`);
  const count = view.getUint16(1, true);
  if (count > snapshotChunkEntriesMax) {
    throw new SnapshotError('chunk-too-large', `chunk has ${count} leaves, expected at most ${snapshotChunkEntriesMax}`);
  }
  at = 3;
  const leaves: SnapshotLeaf[] = [];
  let leafBytes = 0;
  for (let i = 0; i < count; i++) {
    need(leafHeaderBytes, `leaf ${i}`);
    const length = view.getUint16(at + stateKeyBytes, true);
    if (length > stateValueBytesMax) throw malformed(`leaf ${i} value length is ${length}, expected at most ${stateValueBytesMax}`);
    need(leafHeaderBytes + length, `leaf ${i}`);
    leaves.push({ key: bytes.slice(at, at + stateKeyBytes), value: bytes.slice(at + leafHeaderBytes, at + leafHeaderBytes + length) });
    at += leafHeaderBytes + length;
    leafBytes += leafHeaderBytes + length;
  }
  if (leafBytes > snapshotChunkLeafBytesMax) {
    throw new SnapshotError('chunk-too-large', `chunk leaves take ${leafBytes} bytes, expected at most ${snapshotChunkLeafBytesMax}`);
  }
  const readPath = (what: string, withTerminal: boolean): SnapshotPath & { terminal?: number } => {
    need(withTerminal ? 3 : 2, `the ${what} path`);
    const depth = view.getUint16(at, true);
    if (depth > stateDepthMax) throw malformed(`${what} path depth is ${depth}, expected at most ${stateDepthMax}`);
    at += 2;
    const terminal = withTerminal ? bytes[at++]! : undefined;
    const bitmap = at;
    need(Math.ceil(depth / 8), `the ${what} bitmap`);
    at += Math.ceil(depth / 8);
    if ((depth & 7) !== 0 && bytes[at - 1]! >>> (depth & 7) !== 0) throw malformed(`${what} bitmap has spare bits set`);
    const siblings: Uint8Array[] = [];
    for (let i = 0; i < depth; i++) {
      if (((bytes[bitmap + (i >>> 3)]! >>> (i & 7)) & 1) === 0) {
        siblings.push(new Uint8Array(stateHashBytes));
        continue;
      }
      need(stateHashBytes, `${what} sibling ${i}`);
      const sibling = bytes.slice(at, at + stateHashBytes);
      if (isEmptyHash(sibling)) throw malformed(`${what} sibling ${i} is empty but marked present`);
      siblings.push(sibling);
      at += stateHashBytes;
    }
    return terminal === undefined ? { depth, siblings } : { depth, siblings, terminal };
  };
  const leftPath = readPath('left', true);
  let terminal: SnapshotLeftTerminal;
  if (leftPath.terminal === terminalByte.empty) terminal = { kind: 'empty' };
  else if (leftPath.terminal === terminalByte.chunk) terminal = { kind: 'chunk' };
  else if (leftPath.terminal === terminalByte.leaf) {
    need(stateKeyBytes + stateHashBytes, 'the left terminal leaf');
    terminal = { kind: 'leaf', key: bytes.slice(at, at + stateKeyBytes), valueHash: bytes.slice(at + stateKeyBytes, at + stateKeyBytes + stateHashBytes) };
    at += stateKeyBytes + stateHashBytes;
  } else throw malformed(`left terminal byte is ${leftPath.terminal}, expected 0, 1 or 2`);
  const right = count === 0 ? undefined : readPath('right', false);
  if (at !== bytes.length) throw malformed(`chunk has ${bytes.length - at} trailing bytes after offset ${at}`);
  let nextKey: Uint8Array | undefined;
  if (flags === 1) {
    nextKey = count === 0 ? undefined : nextStateKey(leaves[count - 1]!.key);
    if (nextKey === undefined) throw new SnapshotError('chunk-out-of-range', 'chunk says more follow, but no key can follow its last leaf');
  }
  return { leaves, left: { depth: leftPath.depth, siblings: leftPath.siblings, terminal }, right, nextKey };
}
