/** Bounds of the tab's private account (docs/style.md habit 5: every bound named, unit last). */

/** Decoy candidates kept in IndexedDB; the oldest leave first. */
export const privateDecoysMax = 4_096;
/** Blocks one scan pass reads before it saves its cursor (a long catch-up is saved as it goes). */
export const privateScanBlocksPerPass = 50;
/** Blocks re-read below the cursor when the block there changed (a reorganisation of the selected chain). */
export const privateRescanDepthBlocks = 20;
/** Blocks scanned per refresh at most; the next refresh goes on from the cursor. */
export const privateScanBlocksMax = 2_000;
/**
 * Block reads a refresh makes at full speed; past them it paces itself to privateScanReadsPerSecond, so a long
 * catch-up stays well inside the public WebSocket's 1,000 requests a minute (docs/auth.md "Rate limits") and leaves
 * room for the page's balance and history reads.
 */
export const privateScanBurstReads = 100;
export const privateScanReadsPerSecond = 8;
/** Outputs of the account proven per refresh at most (two record proofs each); the rest wait for the next block. */
export const privateProofsPerRefreshMax = 16;
/** Decoy candidates proven per refresh at most (one record proof each), newest first. */
export const privateDecoyProofsPerRefreshMax = 32;
/**
 * The proven decoy pool a ring of the chain's fixed size (16 on mainnet and testnet) needs: this many proven
 * outputs per decoy (60 for 15 decoys) …
 */
export const privateDecoyOutputsPerMember = 4;
/** … spread over at least this many distinct blocks per decoy (30), each ring taking at most one decoy a block … */
export const privateDecoyBlocksPerMember = 2;
/**
 * … with no one block holding more than this share of the pool: a node that plants a burst of outputs in one block
 * (or one block's worth it controls) cannot make up the pool.
 */
export const privateDecoyBlockShareMax = 0.25;
/** Ring size on a test chain (regtest, devnet): consensus allows 1–16 there; 2 still hides the real input in a pair. */
export const privateTestRingSize = 2;
/**
 * A wallet whose phrase this tab generated just now scans from this many blocks below the tip instead of from
 * genesis: nothing older pays it, and the stretch still gives its first rings decoys.
 */
export const privateFreshLookbackBlocks = 1_000;
