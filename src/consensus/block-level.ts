/**
 * A block's level (docs/pruning-proof.md "Block levels"; Kaspa's calc_block_level): how far its PoW hash falls below
 * the network's pow limit, in bits. Every valid block is at level ≥ 0, one in 2^j at level ≥ j whatever the
 * difficulty, so the blocks of level ≥ L thin out geometrically and a few thousand of them span a chain of any age.
 * Genesis is at the top level by definition.
 */
import { bytesToBigIntBE } from '../util/bytes.ts';

const bitLength = (value: bigint): number => (value === 0n ? 0 : value.toString(2).length);

/** The highest level a network's blocks can reach: the bit length of its pow limit (255 for every Weft network). */
export function blockLevelMax(maxTarget: bigint): number {
  return bitLength(maxTarget);
}

/** The level of a block whose PoW hash (its id) is `hash`: bits(maxTarget) − bits(hash), at least 0. */
export function blockLevel(hash: Uint8Array, maxTarget: bigint): number {
  return Math.max(0, bitLength(maxTarget) - bitLength(bytesToBigIntBE(hash)));
}
