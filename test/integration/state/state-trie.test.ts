import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake3 } from '@noble/hashes/blake3.js';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { createStateOverlay, createStateTrie, type StateTrie } from '../../../src/state/trie.ts';
import { StateError } from '../../../src/state/state-errors.ts';
import { createTrieNodeCache } from '../../../src/state/trie-node-cache.ts';
import { createTrieValueCache } from '../../../src/state/trie-value-cache.ts';
import { emptyStateRoot, stateValueBytesMax, type StateHash } from '../../../src/state/trie-hash.ts';
import { concatBytes, toHex } from '../../../src/util/bytes.ts';

const prefix = Uint8Array.of(0x10);
type Model = Map<string, Uint8Array>;
type Batch = Map<string, Uint8Array | null>;

function newTrie(hash?: StateHash) {
  const store = createMemoryStore();
  return { store, trie: createStateTrie({ store, prefix, ...(hash ? { hash } : {}) }) };
}

/** Keys that share long prefixes (a base key with one bit flipped) as well as unrelated ones: deep, sparse paths. */
const base = new Uint8Array(32).fill(0xa5);
const keyArb = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map(toHex),
  fc.integer({ min: 0, max: 255 }).map((bit) => {
    const key = base.slice();
    key[bit >>> 3]! ^= 0x80 >>> (bit & 7);
    return toHex(key);
  }),
  fc.constant(toHex(base)),
);
const valueArb = fc.uint8Array({ minLength: 0, maxLength: 48 });
const batchArb = fc
  .array(fc.tuple(keyArb, fc.option(valueArb, { freq: 4 })), { maxLength: 24 })
  .map((rows) => new Map(rows) as Batch);

function applyToModel(model: Model, batch: Batch): Model {
  const next = new Map(model);
  for (const [key, value] of batch) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

function entriesHex(trie: StateTrie, root: Uint8Array): [string, string][] {
  return [...trie.entries(root)].map(([k, v]) => [toHex(k), toHex(v)]);
}

function modelHex(model: Model): [string, string][] {
  return [...model].map(([k, v]): [string, string] => [k, toHex(v)]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function rootOf(model: Model): Uint8Array {
  const { trie } = newTrie();
  return trie.applyUpdates(emptyStateRoot, model).root;
}

const h = (data: Uint8Array): Uint8Array => blake3(data);
const leafHash = (key: Uint8Array, value: Uint8Array): Uint8Array =>
  h(concatBytes(Uint8Array.of(0), key, h(concatBytes(Uint8Array.of(1), value))));

describe('state trie: hashing rules (docs/state-trie.md)', () => {
  it('the empty state root is 32 zero bytes and an empty batch keeps any root', () => {
    expect(toHex(emptyStateRoot)).toBe('00'.repeat(32));
    const { trie } = newTrie();
    const update = trie.applyUpdates(emptyStateRoot, new Map());
    expect(toHex(update.root)).toBe('00'.repeat(32));
    expect(update.ops).toEqual([]);
  });

  it('a single leaf is the root: BLAKE3(0x00 || key || BLAKE3(0x01 || value))', () => {
    const key = new Uint8Array(32).fill(7);
    const value = Uint8Array.of(1, 2, 3);
    const { trie } = newTrie();
    const { root, ops } = trie.applyUpdates(emptyStateRoot, new Map([[toHex(key), value]]));
    expect(toHex(root)).toBe(toHex(leafHash(key, value)));
    expect(ops).toHaveLength(1);
    expect(toHex(ops[0]!.key)).toBe(`10${toHex(root)}`);
    expect(ops[0]!.type === 'put' && toHex(ops[0]!.value)).toBe(`00${toHex(key)}010203`);
  });

  it('internal nodes hash left || right with empty children as zero bytes, no node for one-leaf subtrees', () => {
    const a = new Uint8Array(32); // 00…
    const b = new Uint8Array(32);
    b[0] = 0x40; // 01… shares bit 0 with a, differs at bit 1
    const c = new Uint8Array(32);
    c[0] = 0x80; // 1…
    const v = Uint8Array.of(9);
    const { trie } = newTrie();
    const two = trie.applyUpdates(emptyStateRoot, new Map([[toHex(a), v], [toHex(b), v]]));
    const inner = h(concatBytes(leafHash(a, v), leafHash(b, v)));
    expect(toHex(two.root)).toBe(toHex(h(concatBytes(inner, new Uint8Array(32)))));
    const three = trie.applyUpdates(emptyStateRoot, new Map([[toHex(a), v], [toHex(b), v], [toHex(c), v]]));
    expect(toHex(three.root)).toBe(toHex(h(concatBytes(inner, leafHash(c, v)))));
  });

  it('the hash is injectable: the trie uses the given function for every node', () => {
    let calls = 0;
    const counting: StateHash = (data) => {
      calls++;
      return blake3(data);
    };
    const { trie } = newTrie(counting);
    const model: Model = new Map([
      ['00'.repeat(32), Uint8Array.of(1)],
      ['ff'.repeat(32), Uint8Array.of(2)],
    ]);
    const { root } = trie.applyUpdates(emptyStateRoot, model);
    expect(calls).toBe(5); // two value hashes, two leaves, one internal node
    expect(toHex(root)).toBe(toHex(rootOf(model)));
  });
});

describe('state trie: batched updates', () => {
  it('after any sequence of batches the root equals building the final map from scratch, and reads agree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batchArb, { minLength: 1, maxLength: 6 }), async (batches) => {
        const { store, trie } = newTrie();
        let root = emptyStateRoot;
        let model: Model = new Map();
        const history: { root: Uint8Array; model: Model }[] = [];
        for (const batch of batches) {
          const update = trie.applyUpdates(root, batch);
          await store.write(update.ops);
          root = update.root;
          model = applyToModel(model, batch);
          history.push({ root, model });
        }
        expect(toHex(root)).toBe(toHex(rootOf(model)));
        expect(entriesHex(trie, root)).toEqual(modelHex(model));
        for (const batch of batches) {
          for (const key of batch.keys()) {
            const got = trie.get(root, Uint8Array.from(Buffer.from(key, 'hex')));
            expect(got === undefined ? undefined : toHex(got)).toBe(model.has(key) ? toHex(model.get(key)!) : undefined);
          }
        }
        // Every older root stays readable: rolling back is reading from it.
        for (const past of history) expect(entriesHex(trie, past.root)).toEqual(modelHex(past.model));
      }),
      { numRuns: 120 },
    );
  });

  it('a node cache of any size changes no root and no read, however its generations turn over', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batchArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 64 }), async (batches, cacheNodes) => {
        const plain = newTrie();
        const store = createMemoryStore();
        const nodeCache = createTrieNodeCache(cacheNodes);
        const cached = createStateTrie({ store, prefix, nodeCache });
        let [a, b] = [emptyStateRoot, emptyStateRoot];
        for (const batch of batches) {
          const [ua, ub] = [plain.trie.applyUpdates(a, batch), cached.applyUpdates(b, batch)];
          await plain.store.write(ua.ops);
          await store.write(ub.ops);
          [a, b] = [ua.root, ub.root];
          expect(toHex(b)).toBe(toHex(a));
          expect(entriesHex(cached, b)).toEqual(entriesHex(plain.trie, a));
          for (const key of batch.keys()) {
            const k = Uint8Array.from(Buffer.from(key, 'hex'));
            expect(cached.get(b, k)).toEqual(plain.trie.get(a, k));
            expect(cached.prove(b, k)).toEqual(plain.trie.prove(a, k));
          }
        }
        expect(nodeCache.size()).toBeLessThanOrEqual(2 * cacheNodes);
      }),
      { numRuns: 80 },
    );
  });

  it('a value cache answers as the trie at every root, read in any order, however small it is', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batchArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 16 }), fc.array(fc.nat(), { maxLength: 30 }), async (batches, cacheValues, order) => {
        const plain = newTrie();
        const store = createMemoryStore();
        const valueCache = createTrieValueCache(cacheValues, 4);
        const cached = createStateTrie({ store, prefix, valueCache });
        const roots: Uint8Array[] = [emptyStateRoot];
        const keys = new Set<string>();
        expect(cached.get(emptyStateRoot, base)).toBeUndefined(); // the cache starts at the empty root
        for (const batch of batches) {
          const parent = roots[roots.length - 1]!;
          const [ua, ub] = [plain.trie.applyUpdates(parent, batch), cached.applyUpdates(parent, batch)];
          await plain.store.write(ua.ops);
          await store.write(ub.ops);
          expect(toHex(ub.root)).toBe(toHex(ua.root));
          roots.push(ub.root);
          for (const key of batch.keys()) keys.add(key);
          // Reads at the new root right away (the cache moves along the update), then at random older roots.
          for (const key of keys) {
            const k = Uint8Array.from(Buffer.from(key, 'hex'));
            expect(cached.get(ub.root, k)).toEqual(plain.trie.get(ua.root, k));
          }
        }
        const all = [...keys];
        for (const pick of order) {
          const root = roots[pick % roots.length]!;
          const k = Uint8Array.from(Buffer.from(all[pick % Math.max(1, all.length)] ?? toHex(base), 'hex'));
          expect(cached.get(root, k)).toEqual(plain.trie.get(root, k));
        }
        // Every changed root was first read right after its update: the cache moved there, never walked afresh.
        if (roots.some((r, i) => i > 0 && toHex(r) !== toHex(roots[i - 1]!))) expect(valueCache.stats.moves).toBeGreaterThan(0);
      }),
      { numRuns: 100 },
    );
  });

  it('deleting every key returns emptyStateRoot', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb, fc.boolean(), async (batch, oneByOne) => {
        const { store, trie } = newTrie();
        const filled = trie.applyUpdates(emptyStateRoot, batch);
        await store.write(filled.ops);
        let root = filled.root;
        const live = [...applyToModel(new Map(), batch).keys()];
        const deletes: Batch[] = oneByOne ? live.map((k) => new Map([[k, null]])) : [new Map(live.map((k) => [k, null]))];
        for (const d of deletes) {
          const update = trie.applyUpdates(root, d);
          await store.write(update.ops);
          root = update.root;
        }
        expect(toHex(root)).toBe(toHex(emptyStateRoot));
      }),
      { numRuns: 120 },
    );
  });

  it('rewriting values as they were, or deleting absent keys, changes nothing and writes nothing', async () => {
    const { store, trie } = newTrie();
    const model: Model = new Map([
      ['11'.repeat(32), Uint8Array.of(1)],
      ['12'.repeat(32), Uint8Array.of(2)],
      ['f0'.repeat(32), Uint8Array.of(3)],
    ]);
    const first = trie.applyUpdates(emptyStateRoot, model);
    await store.write(first.ops);
    const same = trie.applyUpdates(first.root, new Map([...model, ['13'.repeat(32), null]]));
    expect(toHex(same.root)).toBe(toHex(first.root));
    expect(same.ops).toEqual([]);
  });

  it('an overlay lets updates chain before any write; without it the unwritten root is missing', async () => {
    const store = createMemoryStore();
    const overlay = createStateOverlay();
    const trie = createStateTrie({ store, prefix, overlay });
    const key = '33'.repeat(32);
    const other = '34'.repeat(32);
    const a = trie.applyUpdates(emptyStateRoot, new Map([[key, Uint8Array.of(1)], [other, Uint8Array.of(2)]]));
    const b = trie.applyUpdates(a.root, new Map([[key, Uint8Array.of(5)]]));
    expect(trie.get(b.root, Uint8Array.from(Buffer.from(key, 'hex')))).toEqual(Uint8Array.of(5));
    const plain = createStateTrie({ store, prefix });
    expect(() => plain.get(b.root, new Uint8Array(32))).toThrow(expect.objectContaining({ reason: 'node-missing' }));
    await store.write([...a.ops, ...b.ops]);
    overlay.clear();
    expect(plain.get(a.root, Uint8Array.from(Buffer.from(key, 'hex')))).toEqual(Uint8Array.of(1));
    expect(plain.get(b.root, Uint8Array.from(Buffer.from(other, 'hex')))).toEqual(Uint8Array.of(2));
    expect(toHex(b.root)).toBe(toHex(rootOf(new Map([[key, Uint8Array.of(5)], [other, Uint8Array.of(2)]]))));
  });

  it('nodes go under the caller prefix, so two tries share one store', async () => {
    const store = createMemoryStore();
    const one = createStateTrie({ store, prefix: Uint8Array.of(0x10) });
    const two = createStateTrie({ store, prefix: Uint8Array.of(0x11) });
    const update = one.applyUpdates(emptyStateRoot, new Map([['55'.repeat(32), Uint8Array.of(1)]]));
    await store.write(update.ops);
    expect(update.ops.every((op) => op.key[0] === 0x10)).toBe(true);
    expect(() => two.get(update.root, new Uint8Array(32))).toThrow(StateError);
  });
});

describe('state trie: bad input changes nothing', () => {
  const { trie } = newTrie();
  const cases: [string, Batch, string][] = [
    ['a short key', new Map([['abcd', Uint8Array.of(1)]]), 'bad-key'],
    ['a non-hex key', new Map([['zz'.repeat(32), Uint8Array.of(1)]]), 'bad-key'],
    ['a 0x-prefixed key', new Map([[`0x${'ab'.repeat(31)}`, Uint8Array.of(1)]]), 'bad-key'],
    ['one key in two letter cases', new Map([['ab'.repeat(32), null], ['AB'.repeat(32), Uint8Array.of(1)]]), 'bad-key'],
    ['a value over the bound', new Map([['ab'.repeat(32), new Uint8Array(stateValueBytesMax + 1)]]), 'value-too-large'],
  ];
  for (const [what, batch, reason] of cases) {
    it(`refuses ${what} with StateError '${reason}'`, () => {
      expect(() => trie.applyUpdates(emptyStateRoot, batch)).toThrow(expect.objectContaining({ reason }));
    });
  }

  it('accepts a value of exactly the bound and an uppercase key', () => {
    const value = new Uint8Array(stateValueBytesMax).fill(3);
    const upper = trie.applyUpdates(emptyStateRoot, new Map([['AB'.repeat(32), value]]));
    const lower = trie.applyUpdates(emptyStateRoot, new Map([['ab'.repeat(32), value]]));
    expect(toHex(upper.root)).toBe(toHex(lower.root));
  });

  it('refuses roots and keys of the wrong length', () => {
    expect(() => trie.get(new Uint8Array(31), new Uint8Array(32))).toThrow(expect.objectContaining({ reason: 'bad-key' }));
    expect(() => trie.get(emptyStateRoot, new Uint8Array(33))).toThrow(expect.objectContaining({ reason: 'bad-key' }));
  });

  it('reports a stored node that does not decode as node-corrupt', async () => {
    const store = createMemoryStore();
    const corrupt = createStateTrie({ store, prefix });
    const hash = new Uint8Array(32).fill(1);
    await store.write([{ type: 'put', key: concatBytes(prefix, hash), value: Uint8Array.of(7, 7) }]);
    expect(() => corrupt.get(hash, new Uint8Array(32))).toThrow(expect.objectContaining({ reason: 'node-corrupt' }));
  });
});
