/**
 * A call's buffered storage writes, by (variable, key): the call's own later reads see them first, and a second
 * write to the same entry replaces the first. Most calls buffer a few, so they are found by a scan comparing the
 * key's bytes (the variable names come from the host's name cache, so equal names are usually the same string);
 * past `scanMax` an index by `variable ‖ 0 ‖ key` (a character per byte) takes over, so a call with many writes
 * still costs O(1) per lookup. Building and hashing such a string per host call was, with hex, the largest host
 * cost of a token transfer.
 */
import { byteKey } from '../util/byte-key.ts';

/** One buffered storage change: a value to store, or `undefined` to remove the entry. */
export interface StorageWrite {
  readonly variable: string;
  readonly key: Uint8Array;
  readonly value: Uint8Array | undefined;
}

const scanMax = 16;

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
/** Variable names hold no 0 (they are [A-Za-z0-9_]), so distinct entries have distinct slots. */
const slotOf = (variable: string, key: Uint8Array): string => `${variable}\u0000${byteKey(key)}`;

export class PendingWrites {
  private readonly list: StorageWrite[] = [];
  private index: Map<string, number> | undefined;

  get size(): number {
    return this.list.length;
  }

  get(variable: string, key: Uint8Array): StorageWrite | undefined {
    const at = this.position(variable, key);
    return at < 0 ? undefined : this.list[at];
  }

  set(write: StorageWrite): void {
    const at = this.position(write.variable, write.key);
    if (at >= 0) {
      this.list[at] = write;
      return;
    }
    this.list.push(write);
    if (this.index) this.index.set(slotOf(write.variable, write.key), this.list.length - 1);
    else if (this.list.length > scanMax) this.index = new Map(this.list.map((w, i) => [slotOf(w.variable, w.key), i]));
  }

  /** Every buffered write, in the order given (callers sort). */
  values(): readonly StorageWrite[] {
    return this.list;
  }

  private position(variable: string, key: Uint8Array): number {
    if (this.index) return this.index.get(slotOf(variable, key)) ?? -1;
    for (let i = 0; i < this.list.length; i++) {
      const w = this.list[i]!;
      if (w.variable === variable && sameBytes(w.key, key)) return i;
    }
    return -1;
  }
}
