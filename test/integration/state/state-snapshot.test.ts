import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import type { KvStore } from '../../../src/storage/kv.ts';
import { createStateTrie, type StateTrie } from '../../../src/state/trie.ts';
import { emptyStateRoot, keyBit, stateValueBytesMax } from '../../../src/state/trie-hash.ts';
import { readSnapshotChunk, verifySnapshotChunk } from '../../../src/state/snapshot.ts';
import {
  decodeSnapshotChunk,
  encodeSnapshotChunk,
  nextStateKey,
  snapshotChunkBytesMax,
  type SnapshotChunk,
  type SnapshotLeaf,
} from '../../../src/state/snapshot-codec.ts';
import { SnapshotError, type SnapshotErrorReason } from '../../../src/state/snapshot-errors.ts';
import { createSnapshotImport, snapshotCursorKey } from '../../../src/state/snapshot-import.ts';
import { snapshotChunkEntriesMax, snapshotChunkLeafBytesMax } from '../../../src/limits.ts';
import { bigIntToBytesBE, bytesToBigIntBE, toHex } from '../../../src/util/bytes.ts';

const prefix = Uint8Array.of(0x54);
const zeroKey = new Uint8Array(32);
type Model = Map<string, Uint8Array>;

/** Unrelated keys, keys one bit away from a base key (paths up to 256 deep), and the two ends of the key space. */
const base = new Uint8Array(32).fill(0xa5);
const keyArb = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map(toHex) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 0, max: 255 }).map((bit) => {
      const key = base.slice();
      key[bit >>> 3]! ^= 0x80 >>> (bit & 7);
      return toHex(key);
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(toHex(base), toHex(zeroKey), 'ff'.repeat(32)) },
);
const modelArb = fc
  .array(fc.tuple(keyArb, fc.uint8Array({ minLength: 0, maxLength: 40 })), { maxLength: 40 })
  .map((rows) => new Map(rows) as Model);
const chunkSizeArb = fc.integer({ min: 1, max: 9 });

function buildState(model: Model): { store: KvStore; trie: StateTrie; root: Uint8Array } {
  const store = createMemoryStore();
  const trie = createStateTrie({ store, prefix });
  const { root, ops } = trie.applyUpdates(emptyStateRoot, model);
  void store.write(ops); // the memory store applies a batch before its promise settles
  return { store, trie, root };
}

/** Every chunk of the state, each checked by the verifier, read from the start key upward. */
function readAll(trie: StateTrie, root: Uint8Array, entriesMax: number): { starts: Uint8Array[]; chunks: SnapshotChunk[] } {
  const starts: Uint8Array[] = [];
  const chunks: SnapshotChunk[] = [];
  let start: Uint8Array | undefined = zeroKey;
  while (start !== undefined) {
    const chunk = readSnapshotChunk(trie, root, start, { entriesMax });
    starts.push(start);
    chunks.push(chunk);
    start = verifySnapshotChunk(root, start, chunk).nextKey;
  }
  return { starts, chunks };
}

function reasonOf(run: () => unknown): SnapshotErrorReason | 'accepted' {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof SnapshotError) return error.reason;
    throw error;
  }
}

const flipBit = (bytes: Uint8Array, bit: number): Uint8Array => {
  const out = bytes.slice();
  out[(bit >>> 3) % out.length]! ^= 1 << (bit & 7);
  return out;
};

const sortedHex = (model: Model): [string, string][] =>
  [...model].map(([k, v]): [string, string] => [k.toLowerCase(), toHex(v)]).sort((a, b) => (a[0] < b[0] ? -1 : 1));

async function importAll(chunks: readonly SnapshotChunk[], root: Uint8Array, store = createMemoryStore()) {
  const importer = createSnapshotImport({ store, prefix, root });
  for (const chunk of chunks) await importer.apply(chunk);
  return { store, importer, finished: await importer.finish() };
}

describe('state snapshot: read, verify, import', () => {
  it('reading a state chunk by chunk and importing it rebuilds the same root and entries', async () => {
    await fc.assert(
      fc.asyncProperty(modelArb, chunkSizeArb, async (model, entriesMax) => {
        const { trie, root } = buildState(model);
        const { chunks } = readAll(trie, root, entriesMax);
        expect(chunks.reduce((n, c) => n + c.leaves.length, 0)).toBe(model.size);
        expect(chunks.length).toBe(Math.max(1, Math.ceil(model.size / entriesMax)));
        for (const chunk of chunks) expect(decodeSnapshotChunk(encodeSnapshotChunk(chunk))).toEqual(chunk);
        const { store, finished } = await importAll(chunks, root);
        expect(toHex(finished)).toBe(toHex(root));
        const rebuilt = createStateTrie({ store, prefix });
        expect([...rebuilt.entries(root)].map(([k, v]) => [toHex(k), toHex(v)])).toEqual(sortedHex(model));
        expect(store.get(snapshotCursorKey(root))).toBeUndefined();
      }),
      { numRuns: 75 },
    );
  });

  it('covers the edge states: empty, one key, two keys, the lowest and highest keys', async () => {
    const ff = 'ff'.repeat(32);
    for (const keys of [[], [toHex(zeroKey)], [ff], [toHex(zeroKey), ff], [toHex(base), toHex(flipBit(base, 255))]]) {
      const model: Model = new Map(keys.map((k, i) => [k, Uint8Array.of(i)]));
      const { trie, root } = buildState(model);
      for (const size of [1, 2]) {
        const { chunks } = readAll(trie, root, size);
        expect(toHex((await importAll(chunks, root)).finished)).toBe(toHex(root));
      }
    }
  });

  it('a chunk may start anywhere: every start key gives the leaves above it and verifies', () => {
    fc.assert(
      fc.property(modelArb, fc.uint8Array({ minLength: 32, maxLength: 32 }), chunkSizeArb, (model, startKey, size) => {
        const { trie, root } = buildState(model);
        const chunk = readSnapshotChunk(trie, root, startKey, { entriesMax: size });
        const above = sortedHex(model).filter(([k]) => k >= toHex(startKey));
        expect(chunk.leaves.map((l) => toHex(l.key))).toEqual(above.slice(0, size).map(([k]) => k));
        expect(chunk.nextKey === undefined).toBe(above.length <= size);
        verifySnapshotChunk(root, startKey, chunk);
        expect([...trie.entries(root, startKey)].map(([k]) => toHex(k))).toEqual(above.map(([k]) => k));
      }),
      { numRuns: 75 },
    );
  });

  it('stops a chunk at the byte bound, and always takes one leaf', () => {
    const model: Model = new Map();
    for (let i = 0; i < 5; i++) model.set(toHex(new Uint8Array(32).fill(i * 40)), new Uint8Array(stateValueBytesMax).fill(i));
    const { trie, root } = buildState(model);
    const chunk = readSnapshotChunk(trie, root, zeroKey, { leafBytesMax: 2 * (34 + stateValueBytesMax) + 10 });
    expect(chunk.leaves.length).toBe(2);
    const tiny = readSnapshotChunk(trie, root, zeroKey, { leafBytesMax: 1 });
    expect(tiny.leaves.length).toBe(1);
    verifySnapshotChunk(root, zeroKey, tiny);
    expect(encodeSnapshotChunk(chunk).length).toBeLessThanOrEqual(snapshotChunkBytesMax);
  });
});

/** One change to a chunk and the reason it must be refused with (undefined: not applicable to this chunk). */
type Mutation = (chunk: SnapshotChunk, startKey: Uint8Array, model: Model, pick: number) => { chunk: SnapshotChunk; reason: SnapshotErrorReason | SnapshotErrorReason[] } | undefined;

const withLeaves = (chunk: SnapshotChunk, leaves: SnapshotLeaf[]): SnapshotChunk => ({ ...chunk, leaves });

const mutations: Record<string, Mutation> = {
  'alter a value': (c, _s, _m, pick) => {
    if (c.leaves.length === 0) return undefined;
    const i = pick % c.leaves.length;
    const leaves = [...c.leaves];
    leaves[i] = { key: leaves[i]!.key, value: leaves[i]!.value.length === 0 ? Uint8Array.of(pick & 0xff) : flipBit(leaves[i]!.value, pick) };
    return { chunk: withLeaves(c, leaves), reason: 'chunk-root-mismatch' };
  },
  'drop a leaf before the last': (c, _s, _m, pick) => {
    if (c.leaves.length < 2) return undefined;
    const i = pick % (c.leaves.length - 1);
    return { chunk: withLeaves(c, c.leaves.filter((_, j) => j !== i)), reason: 'chunk-root-mismatch' };
  },
  'drop the last leaf': (c) => {
    if (c.leaves.length < 2) return undefined;
    const leaves = c.leaves.slice(0, -1);
    const nextKey = c.nextKey === undefined ? undefined : nextStateKey(leaves.at(-1)!.key);
    return { chunk: { ...c, leaves, nextKey }, reason: ['chunk-root-mismatch', 'chunk-malformed', 'chunk-out-of-range'] };
  },
  'insert a leaf inside the range': (c, _s, model, pick) => {
    if (c.leaves.length < 2) return undefined;
    const i = pick % (c.leaves.length - 1);
    const lo = bytesToBigIntBE(c.leaves[i]!.key);
    const hi = bytesToBigIntBE(c.leaves[i + 1]!.key);
    if (hi - lo < 2n) return undefined;
    const key = bigIntToBytesBE((lo + hi) / 2n, 32);
    if (model.has(toHex(key))) return undefined;
    const leaves = [...c.leaves];
    leaves.splice(i + 1, 0, { key, value: Uint8Array.of(7) });
    return { chunk: withLeaves(c, leaves), reason: 'chunk-root-mismatch' };
  },
  'swap two leaves': (c, _s, _m, pick) => {
    if (c.leaves.length < 2) return undefined;
    const i = pick % (c.leaves.length - 1);
    const leaves = [...c.leaves];
    [leaves[i], leaves[i + 1]] = [leaves[i + 1]!, leaves[i]!];
    return { chunk: withLeaves(c, leaves), reason: 'chunk-not-sorted' };
  },
  'repeat a leaf': (c, _s, _m, pick) => {
    if (c.leaves.length === 0) return undefined;
    const i = pick % c.leaves.length;
    const leaves = [...c.leaves];
    leaves.splice(i, 0, leaves[i]!);
    return { chunk: withLeaves(c, leaves), reason: 'chunk-not-sorted' };
  },
  'flip a bit of a proof hash': (c, startKey, _m, pick) => {
    const paths = c.right === undefined ? ['left' as const] : ['left' as const, 'right' as const];
    const side = paths[pick % paths.length]!;
    const path = side === 'left' ? c.left : c.right!;
    if (path.depth === 0) return undefined;
    const level = (pick >>> 2) % path.depth;
    const siblings = [...path.siblings];
    const wasEmpty = siblings[level]!.every((b) => b === 0);
    siblings[level] = flipBit(siblings[level]!, pick >>> 10);
    const key = side === 'left' ? startKey : c.leaves.at(-1)!.key;
    const sent = keyBit(key, level) === (side === 'left' ? 1 : 0);
    const reason = !sent ? 'chunk-malformed' : side === 'right' && c.nextKey === undefined && wasEmpty ? 'chunk-keys-remain' : 'chunk-root-mismatch';
    const chunk = side === 'left' ? { ...c, left: { ...c.left, siblings } } : { ...c, right: { ...c.right!, siblings } };
    return { chunk, reason };
  },
  'flip a bit of the left terminal leaf': (c, _s, _m, pick) => {
    const t = c.left.terminal;
    if (t.kind !== 'leaf') return undefined;
    if (pick % 2 === 0) return { chunk: { ...c, left: { ...c.left, terminal: { ...t, valueHash: flipBit(t.valueHash, pick) } } }, reason: 'chunk-root-mismatch' };
    return { chunk: { ...c, left: { ...c.left, terminal: { ...t, key: flipBit(t.key, pick) } } }, reason: ['chunk-root-mismatch', 'chunk-malformed'] };
  },
  'claim to be the last while keys remain': (c) => (c.nextKey === undefined ? undefined : { chunk: { ...c, nextKey: undefined }, reason: 'chunk-keys-remain' }),
  'claim more after the last': (c) => {
    if (c.nextKey !== undefined) return undefined;
    const last = c.leaves.at(-1)?.key;
    return { chunk: { ...c, nextKey: last === undefined ? zeroKey : nextStateKey(last) ?? zeroKey }, reason: 'chunk-out-of-range' };
  },
};

describe('state snapshot: a bad chunk is refused with its reason', () => {
  for (const [name, mutate] of Object.entries(mutations)) {
    it(name, () => {
      let applied = 0;
      fc.assert(
        fc.property(modelArb, chunkSizeArb, fc.nat(), fc.nat(), (model, size, which, pick) => {
          const { trie, root } = buildState(model);
          const { starts, chunks } = readAll(trie, root, size);
          const k = which % chunks.length;
          const mutated = mutate(chunks[k]!, starts[k]!, model, pick);
          if (mutated === undefined) return;
          applied++;
          const reason = reasonOf(() => verifySnapshotChunk(root, starts[k]!, mutated.chunk));
          expect([mutated.reason].flat()).toContain(reason);
        }),
        { numRuns: 100 },
      );
      expect(applied).toBeGreaterThan(10);
    });
  }

  it('every single-bit flip of an encoded chunk is refused by the decoder or the verifier', () => {
    fc.assert(
      fc.property(modelArb, chunkSizeArb, fc.nat(), fc.nat(), (model, size, which, bit) => {
        const { trie, root } = buildState(model);
        const { starts, chunks } = readAll(trie, root, size);
        const k = which % chunks.length;
        const encoded = encodeSnapshotChunk(chunks[k]!);
        const flipped = encoded.slice();
        flipped[(bit >>> 3) % flipped.length]! ^= 1 << (bit & 7);
        expect(reasonOf(() => verifySnapshotChunk(root, starts[k]!, decodeSnapshotChunk(flipped)))).not.toBe('accepted');
      }),
      { numRuns: 75 },
    );
  });

  it('a chunk of another state root is refused', () => {
    fc.assert(
      fc.property(modelArb, modelArb, chunkSizeArb, (a, b, size) => {
        const stateA = buildState(a);
        const stateB = buildState(b);
        fc.pre(toHex(stateA.root) !== toHex(stateB.root));
        const { starts, chunks } = readAll(stateA.trie, stateA.root, size);
        for (let k = 0; k < chunks.length; k++) {
          expect(reasonOf(() => verifySnapshotChunk(stateB.root, starts[k]!, chunks[k]!))).toBe('chunk-root-mismatch');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a chunk asked for at another start key is refused', () => {
    const model: Model = new Map([0x10, 0x50, 0x90, 0xd0].map((b) => [toHex(new Uint8Array(32).fill(b)), Uint8Array.of(b)]));
    const { trie, root } = buildState(model);
    const chunk = readSnapshotChunk(trie, root, new Uint8Array(32).fill(0x40), { entriesMax: 2 });
    expect(reasonOf(() => verifySnapshotChunk(root, new Uint8Array(32).fill(0x60), chunk))).toBe('chunk-out-of-range');
    // Asked at 0x00…: its proof carries the subtree left of 0x40… as a hash, inside the range asked for.
    expect(reasonOf(() => verifySnapshotChunk(root, zeroKey, chunk))).toBe('chunk-malformed');
  });

  it('the decoder refuses trailing bytes, oversized counts and oversized chunks', () => {
    const model: Model = new Map([[toHex(base), Uint8Array.of(1)]]);
    const { trie, root } = buildState(model);
    const encoded = encodeSnapshotChunk(readSnapshotChunk(trie, root, zeroKey));
    expect(reasonOf(() => decodeSnapshotChunk(Uint8Array.of(...encoded, 0)))).toBe('chunk-malformed');
    const counted = encoded.slice();
    new DataView(counted.buffer).setUint16(1, snapshotChunkEntriesMax + 1, true);
    expect(reasonOf(() => decodeSnapshotChunk(counted))).toBe('chunk-too-large');
    expect(reasonOf(() => decodeSnapshotChunk(new Uint8Array(snapshotChunkBytesMax + 1)))).toBe('chunk-too-large');
    const big: SnapshotLeaf[] = [];
    for (let i = 0; i < Math.ceil(snapshotChunkLeafBytesMax / stateValueBytesMax) + 1; i++) {
      big.push({ key: bigIntToBytesBE(BigInt(i + 1), 32), value: new Uint8Array(stateValueBytesMax) });
    }
    const chunk: SnapshotChunk = { leaves: big, left: { depth: 0, siblings: [], terminal: { kind: 'chunk' } }, right: { depth: 0, siblings: [] }, nextKey: undefined };
    expect(reasonOf(() => verifySnapshotChunk(root, zeroKey, chunk))).toBe('chunk-too-large');
    expect(reasonOf(() => decodeSnapshotChunk(encodeSnapshotChunk(chunk)))).toBe('chunk-too-large');
  });
});

describe('state snapshot import: resumable, refuses bad chunks whole', () => {
  it('an import interrupted after chunk k resumes from its cursor row and finishes with the same root', async () => {
    await fc.assert(
      fc.asyncProperty(modelArb, chunkSizeArb, fc.nat(), async (model, size, cut) => {
        const { trie, root } = buildState(model);
        const { starts, chunks } = readAll(trie, root, size);
        const k = cut % (chunks.length + 1);
        const store = createMemoryStore();
        const first = createSnapshotImport({ store, prefix, root });
        for (const chunk of chunks.slice(0, k)) await first.apply(chunk);
        // kill -9: the object is gone; a new one reads the cursor row of the same store.
        const resumed = createSnapshotImport({ store, prefix, root });
        expect(resumed.entries).toBe(chunks.slice(0, k).reduce((n, c) => n + c.leaves.length, 0));
        expect(resumed.nextKey === undefined ? undefined : toHex(resumed.nextKey)).toBe(k < chunks.length ? toHex(starts[k]!) : undefined);
        for (const chunk of chunks.slice(k)) await resumed.apply(chunk);
        expect(toHex(await resumed.finish())).toBe(toHex(root));
        expect(sortedHex(new Map([...createStateTrie({ store, prefix }).entries(root)].map(([kk, v]) => [toHex(kk), v])))).toEqual(sortedHex(model));
      }),
      { numRuns: 100 },
    );
  });

  it('a refused chunk writes nothing; a repeated or skipped chunk is refused; finish waits for the last', async () => {
    const model: Model = new Map();
    for (let i = 1; i <= 12; i++) model.set(toHex(new Uint8Array(32).fill(i * 19)), Uint8Array.of(i));
    const { trie, root } = buildState(model);
    const { chunks } = readAll(trie, root, 4);
    expect(chunks.length).toBe(3);
    const store = createMemoryStore();
    const importer = createSnapshotImport({ store, prefix, root });
    await importer.apply(chunks[0]!);
    const before = [...store.entries()].map(([k, v]) => toHex(k) + toHex(v));
    const bad = { ...chunks[1]!, leaves: chunks[1]!.leaves.slice(1) };
    await expect(importer.apply(bad)).rejects.toMatchObject({ reason: 'chunk-root-mismatch', peerFault: true });
    await expect(importer.apply(chunks[0]!)).rejects.toMatchObject({ reason: 'chunk-out-of-range' });
    await expect(importer.apply(chunks[2]!)).rejects.toBeInstanceOf(SnapshotError);
    expect([...store.entries()].map(([k, v]) => toHex(k) + toHex(v))).toEqual(before);
    await expect(importer.finish()).rejects.toMatchObject({ reason: 'import-state' });
    await importer.apply(chunks[1]!);
    await importer.apply(chunks[2]!);
    await expect(importer.apply(chunks[2]!)).rejects.toMatchObject({ reason: 'import-state' });
    expect(toHex(await importer.finish())).toBe(toHex(root));
  });
});
