/**
 * The values of one state root kept in memory, following the chain (docs/state-trie.md "Value cache"): the ledger's
 * hot reads — the mempool's senders, acceptance's accounts, the virtual view — are at the selected tip's root, and each
 * new block's root is its parent's plus the batch the trie just applied. So the cache holds the values read at one
 * root (read-through), and when a read comes for a root an update made from it, the update's own batch moves the
 * cache there in O(batch): no trie walk for what the block changed, and nothing else to forget.
 *
 * Correct by construction: a root's content is exactly its parent's with the batch applied (that is what the trie
 * computed the root from), so a cached value is the trie's answer. A read at a root the cache cannot reach from its own
 * by recorded updates starts it afresh there (a reorganisation, an old block's state): the cost is the trie walks the
 * cache saves, never a wrong answer. Bounded in values and in recorded updates.
 */
import { equalBytes, toHex } from '../util/bytes.ts';

/** A recorded update: `parent` and the batch (lowercase hex key → value, null deleted) that made the root it is filed under. */
interface Transition {
  readonly parent: Uint8Array;
  readonly batch: ReadonlyMap<string, Uint8Array | null>;
}

export interface TrieValueCache {
  /** The value of `keyHex` (lowercase) at `root` if the cache knows it (null: known absent), else undefined. */
  get(root: Uint8Array, keyHex: string): Uint8Array | null | undefined;
  /** Remembers what a read at `root` found (null: absent); ignored unless the cache is at `root`. */
  set(root: Uint8Array, keyHex: string, value: Uint8Array | null): void;
  /** The trie made `root` from `parent` with `batch` (keys lowercase hex). */
  updated(parent: Uint8Array, root: Uint8Array, batch: ReadonlyMap<string, Uint8Array | null>): void;
  readonly stats: { hits: number; misses: number; moves: number; restarts: number };
}

/** How many recorded updates a move may chain (blocks between two reads at the tip). */
const moveStepsMax = 16;

export function createTrieValueCache(valuesMax: number, transitionsMax = 64): TrieValueCache {
  let root: Uint8Array | undefined;
  let values = new Map<string, Uint8Array | null>();
  const transitions = new Map<string, Transition>();
  const stats = { hits: 0, misses: 0, moves: 0, restarts: 0 };

  /** Brings the cache to `target`: along recorded updates from where it is, else afresh. */
  const moveTo = (target: Uint8Array): void => {
    const path: Transition[] = [];
    let at = target;
    for (let step = 0; step < moveStepsMax && root !== undefined && !equalBytes(at, root); step++) {
      const transition = transitions.get(toHex(at));
      if (transition === undefined) break;
      path.push(transition);
      at = transition.parent;
    }
    if (root !== undefined && equalBytes(at, root)) {
      for (let i = path.length - 1; i >= 0; i--) for (const [key, value] of path[i]!.batch) values.set(key, value);
      if (values.size > valuesMax) values = new Map();
      stats.moves++;
    } else {
      values = new Map();
      stats.restarts++;
    }
    root = target.slice();
  };

  return {
    get(at, keyHex) {
      if (root === undefined || !equalBytes(at, root)) moveTo(at);
      const value = values.get(keyHex);
      if (value === undefined) stats.misses++;
      else stats.hits++;
      return value;
    },
    set(at, keyHex, value) {
      if (root === undefined || !equalBytes(at, root)) return;
      if (values.size >= valuesMax) values.clear();
      values.set(keyHex, value);
    },
    updated(parent, made, batch) {
      if (equalBytes(parent, made)) return;
      transitions.set(toHex(made), { parent: parent.slice(), batch });
      if (transitions.size > transitionsMax) transitions.delete(transitions.keys().next().value!);
    },
    stats,
  };
}
